# tests/fuzz/server.mk -- the server's own fuzz targets (included by the Makefile).
#
#   build/fuzz/fuzz_http      HTTP requests to the API (api.c, core/account.c, play/records.c,
#                             play/import.c, the Bot API's routes and streams in botapi/,
#                             community/forum.c, support.c, moderation.c), as visitors,
#                             guests, players, moderators, admins and token holders
#   build/fuzz/fuzz_ws        WebSocket clients playing, watching, leaving (dispatch.c,
#                             play/), with the clock moved and workers run
#   build/fuzz/fuzz_settings  msg_parse and msg_settings_parse (core/msg.c)
#
# They link the server without its net, its threads and its main
# (src/server/net/, with net_frames.c's recv(); core/workers.c; serve.c): tests/fuzz/server_fake.c stands in for net.h and workers.h,
# tests/fuzz/fake_store.c keeps the in-memory store between inputs.
# Objects are built once, under build/fuzz-srv/, for all three.
#
# `make fuzz-fast` builds the same three under build/fuzz-fast/ without
# AddressSanitizer (-O2, libFuzzer and UBSan's cheap checks), about
# twice as fast, for long runs (tools/fuzz-long), whose corpus is then
# replayed under the ASan build of build/fuzz/.

FUZZ_SRV_BIN := build/fuzz/fuzz_http build/fuzz/fuzz_ws build/fuzz/fuzz_settings
FUZZ_SRV_SRC := $(filter-out src/server/net/% src/server/core/workers.c src/server/serve.c, \
                  $(wildcard src/server/*.c src/server/*/*.c)) $(wildcard src/store/*.c)
FUZZ_SRV_CFLAGS := $(STD) -D_DEFAULT_SOURCE -g -O1 -DCITADEL_DEBUG -DCITADEL_FUZZ \
                   -fsanitize=fuzzer,address,undefined
FUZZ_SRV_LIBS := -ljansson -lsqlite3 -lpq -lsodium -lcmark -lcurl $(LIBS)
FUZZ_SRV_OBJ := $(patsubst %.c,build/fuzz-srv/%.o,$(FUZZ_SRV_SRC) $(SRC_LIB) \
                  tests/fuzz/server_fake.c tests/fuzz/fake_store.c)
FUZZ_SRV_HDR := $(wildcard src/*/*.h src/*/*/*.h) tests/fuzz/server_fake.h tests/fuzz/ws_model.h

build/fuzz-srv/%.o: %.c $(FUZZ_SRV_HDR)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_SRV_CFLAGS) -c $< -o $@

# explicit (static pattern) rules: they win over the Makefile's build/fuzz/%;
# fuzz_ws adds its model of what clients know (ws_model.c)
FUZZ_SRV_EXTRA_fuzz_ws := build/fuzz-srv/tests/fuzz/ws_model.o
$(FUZZ_SRV_BIN): build/fuzz/%: tests/fuzz/%.c $(FUZZ_SRV_OBJ) $(FUZZ_SRV_HDR) \
                 build/fuzz-srv/tests/fuzz/ws_model.o
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_SRV_CFLAGS) $< $(FUZZ_SRV_OBJ) $(FUZZ_SRV_EXTRA_$*) -o $@ $(FUZZ_SRV_LIBS)

fuzz: $(FUZZ_SRV_BIN)

FUZZ_FAST_BIN := $(patsubst build/fuzz/%,build/fuzz-fast/%,$(FUZZ_SRV_BIN))
# UBSan's cheap checks only: alignment, null and pointer-overflow doubled
# an input's time, and the ASan replay has all of them
FUZZ_FAST_UBSAN := signed-integer-overflow,shift,integer-divide-by-zero,bounds,return,unreachable,vla-bound,bool,enum
FUZZ_FAST_CFLAGS := $(STD) -D_DEFAULT_SOURCE -g -O2 -DCITADEL_DEBUG -DCITADEL_FUZZ \
                    -fsanitize=fuzzer,$(FUZZ_FAST_UBSAN) -fno-sanitize-recover=all
FUZZ_FAST_OBJ := $(patsubst build/fuzz-srv/%,build/fuzz-fast-srv/%,$(FUZZ_SRV_OBJ))

build/fuzz-fast-srv/%.o: %.c $(FUZZ_SRV_HDR)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_FAST_CFLAGS) -c $< -o $@

# The engines and bots (src/games, src/ai) without libFuzzer's coverage
# hooks in the fast build: they have their own targets (fuzz_move,
# fuzz_position, fuzz_km, fuzz_stratego), and their comparisons were half
# of fuzz_ws's time; the coverage that guides these runs is the server's.
# The ASan replay (build/fuzz/) still has them instrumented and checked.
FUZZ_FAST_PLAIN := $(filter build/fuzz-fast-srv/src/games/% build/fuzz-fast-srv/src/ai/%, \
                     $(FUZZ_FAST_OBJ))
$(FUZZ_FAST_PLAIN): build/fuzz-fast-srv/%.o: %.c $(FUZZ_SRV_HDR)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(STD) -D_DEFAULT_SOURCE -g -O2 -DCITADEL_DEBUG \
	    -fsanitize=$(FUZZ_FAST_UBSAN) -fno-sanitize-recover=all -c $< -o $@

$(FUZZ_FAST_BIN): build/fuzz-fast/%: tests/fuzz/%.c $(FUZZ_FAST_OBJ) $(FUZZ_SRV_HDR) \
                  build/fuzz-fast-srv/tests/fuzz/ws_model.o
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_FAST_CFLAGS) $< $(FUZZ_FAST_OBJ) \
	    $(patsubst build/fuzz-srv/%,build/fuzz-fast-srv/%,$(FUZZ_SRV_EXTRA_$*)) \
	    -o $@ $(FUZZ_SRV_LIBS)

fuzz-fast: $(FUZZ_FAST_BIN)
