# Citadel -- a plain Makefile.
#
#   make            release build: build/release/citadel
#   make debug      debug build with position checks after every move
#   make asan       AddressSanitizer + UndefinedBehaviorSanitizer build
#   make test       every test tier (unit, integration, sanitizers, fuzz)
#   make run        build and start the program
#   make bench      the search fingerprint, and perft speed from the Classic start
#   make fuzz       build the libFuzzer targets
#   make load       build the server's load generator (tools/load)
#   make wasm       the games as WebAssembly for the page (build/wasm/engine.wasm)
#
# Each build lives in its own folder under build/, so tiers never mix objects.

CC      ?= cc
FUZZCC  ?= clang
WARN    := -Wall -Wextra -Wshadow -Wconversion -Wsign-conversion -Wmissing-prototypes \
           -Wstrict-prototypes -Wpointer-arith -Wformat=2 -Wundef -Wvla -Werror
# libpq's header folder (Debian's libpq-dev), for the store's PostgreSQL backend.
PG_INC  := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
STD     := -std=c11 -D_POSIX_C_SOURCE=200809L $(PG_INC)
LIBS    := -lm -lpthread

# libcitadel.a: base, the games (their tools, tool_*.c, included) and the bots.
SRC_LIB := $(wildcard src/base/*.c) $(wildcard src/games/*.c) $(wildcard src/games/*/*.c) \
           $(wildcard src/ai/*.c)
# The command line, linked into the `citadel` binary only.
SRC_CLI := $(wildcard src/cli/*.c)
# Rampart's learnt evaluation (src/games/rampart/nnue.h), trained by
# `citadel train` and embedded as a C array.
NET     := src/games/rampart/rampart.nnue
GEN_NET := build/gen/rampart_net.c
SRC_LIB += $(GEN_NET)
# The server, linked into the `citadel` binary only (the unit tests and fuzz
# targets need none of its libraries).
SRC_SRV := $(wildcard src/server/*.c src/server/*/*.c) $(wildcard src/store/*.c)
SRV_LIBS := -lwebsockets -luv -ljansson -lsqlite3 -lpq -lsodium -lcmark -lcurl -lssl -lcrypto
UNIT    := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_*.c))
# Tests of the server, each once in tests/server/tests.list: its name, the
# tiers of tests/run.sh that run it, and what it links. A line becomes one
# word here ("test_quota:unit,asan:-D_DEFAULT_SOURCE:src/server/quota.c").
SRV_LIST   := tests/server/tests.list
SRV_LINES  := $(shell sed -e 's/\#.*//' -e 's/^ *//' -e 's/ *$$//' -e '/^$$/d' -e 's/  */:/g' $(SRV_LIST))
SRVTEST    := $(foreach l,$(SRV_LINES),$(firstword $(subst :, ,$(l))))
# what test $(1) links: its words after the tiers
srv_links   = $(wordlist 3,99,$(subst :, ,$(filter $(1):%,$(SRV_LINES))))
# the tests that link parts of the program themselves; the others talk to
# the server over the wire through the test client (SRV_CLIENT)
SRV_LINKED := $(foreach t,$(SRVTEST),$(if $(call srv_links,$(t)),$(t)))
# The test client, which the tests over the wire link: HTTP and WebSocket
# (client.c, its framing in wsframe.c), the server under test (fixture.c).
SRV_CLIENT := tests/server/client.c tests/server/fixture.c tests/server/wire.c \
              tests/server/wirelog.c tests/server/wsframe.c tests/server/smtp_sink.c
FUZZ    := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

release_CFLAGS := -O3 -march=native -DNDEBUG
# Test builds also carry the store's fault injection (src/store/store_faults.c).
debug_CFLAGS   := -O1 -g -DCITADEL_DEBUG -DCITADEL_FAULTS
asan_CFLAGS    := -O1 -g -DCITADEL_DEBUG -DCITADEL_FAULTS -fsanitize=address,undefined \
                  -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all release debug asan release-tests debug-tests asan-tests test run bench fuzz fuzz-fast load wasm clean
all: release

define BUILD
$(1)_OBJ := $$(patsubst %.c,build/$(1)/%.o,$$(SRC_LIB))
$(1)_SRV := $$(patsubst %.c,build/$(1)/%.o,$$(SRC_SRV))
$(1)_CLI := $$(patsubst %.c,build/$(1)/%.o,$$(SRC_CLI))
build/$(1)/%.o: %.c $$(wildcard src/*/*.h src/*/*/*.h)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(STD) $$(WARN) $$($(1)_CFLAGS) -c $$< -o $$@
build/$(1)/libcitadel.a: $$($(1)_OBJ)
	@rm -f $$@
	ar rcs $$@ $$^
build/$(1)/citadel: $$($(1)_CLI) $$($(1)_SRV) build/$(1)/libcitadel.a
	$$(CC) $$($(1)_CFLAGS) $$^ -o $$@ $$(SRV_LIBS) $$(LIBS)
build/$(1)/tests/%: tests/unit/%.c $$(wildcard tests/unit/*.h) build/$(1)/libcitadel.a
	@mkdir -p $$(dir $$@)
	$$(CC) $$(STD) $$(WARN) -Wno-missing-prototypes $$($(1)_CFLAGS) $$< \
	    build/$(1)/libcitadel.a -o $$@ -lcmocka $$(LIBS)
build/$(1)/tests/test_%: tests/server/test_%.c $$(wildcard tests/server/*.h) $$(SRV_CLIENT)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(STD) -D_DEFAULT_SOURCE $$(WARN) -Wno-missing-prototypes $$($(1)_CFLAGS) $$< \
	    $$(SRV_CLIENT) -o $$@ -ljansson -lsqlite3 -lpq -lcmocka -lsodium -lcrypto \
	    $$(LIBS)
$(1): build/$(1)/citadel
$(1)-tests: $$(addprefix build/$(1)/tests/,$$(UNIT) $$(SRVTEST))
endef

$(eval $(call BUILD,release))
$(eval $(call BUILD,debug))
$(eval $(call BUILD,asan))

# A test of tests/server that links parts of the program itself ($(2)) in
# build $(1): the sources, -D flags and -l libraries its line names, and
# `lib`, the build's libcitadel.a.
define LINKED_TEST
$(1)_$(2)_SRC := $$(wildcard $$(filter-out -% lib,$$(call srv_links,$(2))))
$(1)_$(2)_LIB := $$(if $$(filter lib,$$(call srv_links,$(2))),build/$(1)/libcitadel.a)
build/$(1)/tests/$(2): tests/server/$(2).c $$($(1)_$(2)_SRC) $$($(1)_$(2)_LIB) \
        $$(wildcard tests/server/*.h $$(addsuffix *.h,$$(sort $$(dir $$($(1)_$(2)_SRC)))))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(STD) $$(filter -D%,$$(call srv_links,$(2))) $$(WARN) -Wno-missing-prototypes \
	    $$($(1)_CFLAGS) -Isrc $$< $$($(1)_$(2)_SRC) $$($(1)_$(2)_LIB) -o $$@ \
	    $$(filter -l%,$$(call srv_links,$(2))) -lcmocka $$(LIBS)
endef
$(foreach b,release debug asan,$(foreach t,$(SRV_LINKED),$(eval $(call LINKED_TEST,$(b),$(t)))))


build/fuzz/%: tests/fuzz/%.c $(SRC_LIB) $(wildcard src/*/*.h src/*/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(STD) -g -O1 -DCITADEL_DEBUG -fsanitize=fuzzer,address,undefined \
	    $(filter %.c,$^) -o $@ $(LIBS)
# fuzz_uci drives the command line's UCI session, which is not in the library.
build/fuzz/fuzz_uci: src/cli/uci.c src/cli/uci_options.c

# The games compiled to WebAssembly (clang's wasm32-wasi target with Debian's
# wasi-libc and wasm32 compiler-rt), the page's engine (src/wasm/engine.h);
# web/build.mjs copies it into web/dist. engine_cli is the same code built
# natively, for tests/wasm/compare.mjs to hold the two builds equal. SIMD
# (-msimd128) is in every browser since 2021.
WASMCC   ?= clang
# The search recurses up to SEARCH_MAX_PLY frames, each with its move list:
# wasm-ld's default stack of 64 KiB held about a dozen (a MultiPV search
# overran it), so the stack is sized as a native thread's search needs.
WASM_STACK := 2097152
# The games' command-line tools (tool_*.c, with files and threads) stay out.
WASM_SRC := src/wasm/engine.c $(wildcard src/base/*.c) \
            $(filter-out $(wildcard src/games/tool_*.c src/games/*/tool_*.c), \
              $(wildcard src/games/*.c) $(wildcard src/games/*/*.c)) \
            src/ai/search.c src/ai/multi.c $(GEN_NET)
build/wasm/engine.wasm: $(WASM_SRC) $(wildcard src/*/*.h src/*/*/*.h)
	@mkdir -p $(dir $@)
	$(WASMCC) --target=wasm32-wasi -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -O3 -msimd128 \
	    -mexec-model=reactor -Wl,-z,stack-size=$(WASM_STACK) -Isrc $(WASM_SRC) -o $@
build/wasm/engine_cli: tests/wasm/engine_cli.c src/wasm/engine.c src/wasm/engine.h \
        build/release/libcitadel.a
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) -O2 -Isrc tests/wasm/engine_cli.c src/wasm/engine.c \
	    build/release/libcitadel.a -o $@ $(LIBS)
wasm: build/wasm/engine.wasm build/wasm/engine_cli

# The server's own fuzz targets (HTTP, WebSocket dispatch, settings) build
# against a fake net and fake workers: tests/fuzz/server.mk.
-include tests/fuzz/server.mk

fuzz: $(addprefix build/fuzz/,$(FUZZ))

# Remade on every run (the net may have appeared or gone), but replaced
# only when it changed, so that nothing is rebuilt for nothing.
$(GEN_NET): FORCE
	@mkdir -p $(dir $@)
	@bash tools/embed rn_blob $(wildcard $(NET)) > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
FORCE:

test:
	bash tests/run.sh

run: release
	./build/release/citadel uci

# The load generator for `citadel serve` (tools/load/README.md).
load: build/release/load
# Its WebSocket framing is the tests' (tests/server/wsframe.c).
build/release/load: $(wildcard tools/load/*.c tools/load/*.h) tests/server/wsframe.c \
        tests/server/wsframe.h
	@mkdir -p $(dir $@)
	$(CC) $(STD) -D_DEFAULT_SOURCE $(WARN) $(release_CFLAGS) -Itests/server $(filter %.c,$^) -o $@ \
	    -ljansson -lsodium -lcrypto

bench: release
	./build/release/citadel bench
	./build/release/citadel bench perft

clean:
	rm -rf build
