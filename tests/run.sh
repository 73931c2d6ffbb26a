#!/usr/bin/env bash
# tests/run.sh -- every test tier, one summary line at the end.
#
# Tiers:
#   unit         cmocka tests on the debug build (position checks after
#                every make)
#   pg           the store's tests again, on a private PostgreSQL cluster
#   sanitizers   the same unit tests, and the integration tests, built with
#                AddressSanitizer + UndefinedBehaviorSanitizer
#   server       `citadel serve` started on a loopback port and driven over
#                HTTP and WebSocket (tests/server), release and sanitizer builds:
#                playing, under attack, a short soak, store faults
#   integration  the built `citadel` driven as a subprocess
#   wasm         the games compiled to WebAssembly for the page, against the
#                same C built natively (tests/wasm)
#   web          the page type-checked and built, then browser tests in
#                Chromium against a real server (tests/browser)
#   fuzz         libFuzzer targets on the position, move, PGN and UCI parsers and on
#                the server (HTTP, WebSocket clients, game settings), a
#                bounded run each (FUZZ_SECONDS, default 20)
#
# The tests of tests/server, and the tiers each runs in, are listed once, in
# tests/server/tests.list (which the Makefile reads too).
#
# Every tier prints its results in one format, TAP ("ok N - NAME", "not ok
# N - NAME", "# " lines for what went wrong, a plan "1..N"): the cmocka
# tests (CMOCKA_MESSAGE_OUTPUT=TAP), the shell tests (tests/integration/
# lib.sh, tests/soak.sh), and the node ones (tests/wasm/compare.mjs,
# tests/browser/run.mjs). One reader, tap_read, records each result, and the
# summary counts them: build/test-results.tap holds the whole run as one
# TAP stream. Each test case counts once (a skipped one not at all); the
# last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
JOBS=$(nproc 2>/dev/null || echo 2)
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
export CMOCKA_MESSAGE_OUTPUT=TAP

# note TITLE: a section's heading; the section before it ends with how long
# it took, and the run's time so far (where the minutes go, in CI's log).
SECTION_START=
note() {
    [ -n "$SECTION_START" ] && printf '== took %ds (%d min %02ds into the run)\n' $((SECONDS - SECTION_START)) \
        $((SECONDS / 60)) $((SECONDS % 60))
    SECTION_START=$SECONDS
    printf '\n== %s\n' "$*"
}

# record pass|fail|skip NAME: one result, kept as a TAP line.
record() {
    case $1 in
    pass) echo "ok - $2" ;;
    fail) echo "not ok - $2" ;;
    skip) echo "ok - $2 # SKIP" ;;
    esac >>"$RESULTS"
}

build() {
    note "build $*"
    if ! make -s -j"$JOBS" "$@" >/tmp/citadel-build.log 2>&1; then
        cat /tmp/citadel-build.log
        record fail "build: $*"
        return 1
    fi
    record pass "build: $*"
}

# tap_read TIER NAME RC: reads the TAP a test program printed (stdin) and
# records each result as "TIER: NAME: test" ("TIER: test" if NAME is
# empty); prints each failure with its "# " lines, then one line of counts.
# The program exited with RC ("-": its status says nothing); a status other
# than 0 with no failure reported, or fewer results than its plan, is a
# failure of its own (a crash). Returns 1 if anything failed.
tap_read() {
    local tier=$1 name=$2 rc=$3 line test plan= n=0 ok=0 bad=0 skip=0 show=0
    local where="$tier: ${name:+$name: }"
    while IFS= read -r line; do
        case $line in
        "ok "*"# SKIP"* | "not ok "*"# SKIP"*)
            test=${line#*# SKIP}
            test=${test# }
            [ -n "$test" ] || test=$(tap_test "${line%%# SKIP*}")
            n=$((n + 1)) skip=$((skip + 1)) show=0
            record skip "$where$test" ;;
        "not ok"*)
            n=$((n + 1)) bad=$((bad + 1)) show=1
            record fail "$where$(tap_test "$line")"
            echo "$where$line" ;;
        "ok "* | ok)
            n=$((n + 1)) ok=$((ok + 1)) show=0
            record pass "$where$(tap_test "$line")" ;;
        "# took "*)  # how long a part took (tests/browser/run.mjs)
            echo "    ${line#\# }" ;;
        "#"*)
            [ $show = 1 ] && echo "    $line" ;;
        1..*)
            plan=${line#1..}
            plan=${plan%% *} ;;
        esac
    done
    if [ "$rc" != - ] && [ "$rc" -ne 0 ] && [ $bad -eq 0 ]; then
        record fail "${where}exit status $rc"
        echo "${where}not ok - exit status $rc"
        bad=1
    elif [ -n "$plan" ] && [ "$n" -lt "$plan" ] && [ $bad -eq 0 ]; then
        record fail "${where}ran $n of $plan"
        echo "${where}not ok - ran $n of $plan"
        bad=1
    fi
    echo "$where$ok ok, $bad failed, $skip skipped"
    [ $bad -eq 0 ]
}

# The name in a TAP result line: after "ok N - " or "not ok N - ".
tap_test() {
    local t=${1#not ok}
    t=${t#ok}
    t=${t#"${t%%[![:space:]0-9]*}"}
    t=${t#- }
    echo "${t% }"
}

# run_tap TIER NAME COMMAND...: runs a test program (at most TAP_TIMEOUT
# seconds, default 600; 0: no bound) and reads its TAP; on a failure, the
# end of what it printed on stderr follows. TAP_STATUS=ignore: its exit
# status says nothing (the shell tests, whose results are all in their TAP).
run_tap() {
    local tier=$1 name=$2 out err rc start=$SECONDS
    shift 2
    out=$(mktemp)
    err=$(mktemp)
    timeout "${TAP_TIMEOUT:-600}" "$@" >"$out" 2>"$err"
    rc=$?
    [ "${TAP_STATUS:-}" = ignore ] && rc=-
    if ! tap_read "$tier" "$name" "$rc" <"$out"; then
        tail -n 40 "$err"
    fi
    echo "    took $((SECONDS - start))s"
    rm -f "$out" "$err"
}

# Runs one cmocka binary and records each of its test cases.
run_cmocka() {
    run_tap "$2" "$(basename "$1")" "$1"
}

# The tests of tests/server/tests.list that tier $1 runs, in the list's order.
SRV_LIST=tests/server/tests.list
tier_tests() {
    sed 's/#.*//' "$SRV_LIST" | awk -v tier="$1" 'NF >= 2 && index("," $2 ",", "," tier ",") { print $1 }'
}

# Runs tier $1's tests of tests/server: the test binaries of build $2,
# against the server binary $3 (none for tests that start no server).
run_tier() {
    local tier=$1 build=$2 server=${3:-}
    for t in $(tier_tests "$tier"); do
        CITADEL=$server run_cmocka "build/$build/tests/$t" "$tier"
    done
}

# 0 if test binary $1 runs in tier $2: any test of tests/unit, and the
# tests of tests/server that the list puts in that tier.
in_tier() {
    local name
    name=$(basename "$1")
    if awk -v n="$name" '$1 == n { found = 1 } END { exit !found }' "$SRV_LIST"; then
        tier_tests "$2" | grep -qx "$name"
    fi
}

# --- builds ---------------------------------------------------------------
build release load
build debug debug-tests
build asan asan-tests

# --- structure --------------------------------------------------------------
# The layers as the code itself says (tools/deps): no circle of C files
# (from the release objects' symbols), of C includes or of the page's
# imports, and no comparison of a game's name outside the games.
note "structure"
if out=$(python3 tools/deps --build build/release 2>&1); then
    record pass "structure: tools/deps"
else
    echo "$out"
    record fail "structure: tools/deps"
fi

# --- unit -----------------------------------------------------------------
note "unit (debug build)"
# the tests of tests/server that start a server run in their own tiers below
for t in build/debug/tests/test_*; do
    in_tier "$t" unit || continue
    [ -x "$t" ] && run_cmocka "$t" unit
done

note "unit (ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in build/asan/tests/test_*; do
    in_tier "$t" asan || continue
    [ -x "$t" ] && run_cmocka "$t" asan
done

# --- PostgreSQL -------------------------------------------------------------------
# A private PostgreSQL cluster (tests/pg.sh: a temporary folder, a free
# port, stopped at the end of the run). The store's tests run on it once
# more (the tests of SQLite's own files and pragmas skip themselves), and,
# in the server tier below, the over-the-wire tests once more with every
# server on a database of its own in it.
note "store on PostgreSQL (debug and ASan + UBSan builds)"
pg_dir=
if pg_env=$(bash tests/pg.sh start 2>&1); then
    eval "$pg_env"
    pg_dir=$CITADEL_TEST_PG_DIR
    run_tier pg debug
    run_tier pg-asan asan
    pg_uri=$CITADEL_TEST_PG
    unset CITADEL_TEST_PG CITADEL_TEST_PG_DIR
else
    echo "$pg_env" | tail -n 20
    record fail "pg: cluster"
fi
trap 'rm -f "$RESULTS"; [ -n "$pg_dir" ] && bash tests/pg.sh stop "$pg_dir"' EXIT

# --- the server over the wire ---------------------------------------------------
# The real `citadel serve` on a loopback port, driven by tests/server/client.c;
# once as the release build, once as the sanitizer build (a sanitizer report
# kills that server, and the tests after it fail). test_guard is the server
# under attack; test_keeps_live is Keeps & Moats at four-seat tables (bots in
# every seat, resigning, a restart); test_effects_live what the server sends
# to draw a move with; test_group_commit requests that wait for a game's
# write (the test builds slow the store's writer down); test_faults walks a store fault over
# every write of a scripted session, which needs the fault injection of the
# test builds.
# Every message the test client sends or receives in this tier is logged
# (tests/server/wirelog.c), then checked against docs/api.schema.json below.
wire_log=$PWD/build/wire-server.log
rm -f "$wire_log"
export CITADEL_WIRE_LOG=$wire_log
note "server (release build)"
run_tier server-release debug build/release/citadel
if [ -n "$pg_dir" ]; then
    note "server on PostgreSQL (release build; test_group_commit: ASan + UBSan build)"
    # several servers on the one database (test_cluster): both builds
    CITADEL_TEST_PG=$pg_uri run_tier server-pg debug build/release/citadel
    CITADEL_TEST_PG=$pg_uri run_tier server-pg-asan debug build/asan/citadel
    bash tests/pg.sh stop "$pg_dir"
    pg_dir=
fi
note "server (ASan + UBSan build)"
run_tier server-asan debug build/asan/citadel
note "short soak (ASan + UBSan build)"
# 300 games with spectators and clients that come and go (tests/soak.sh)
CITADEL=build/asan/citadel LOAD=build/release/load run_tap soak "" bash tests/soak.sh
note "store faults (ASan + UBSan build)"
run_tier faults-asan debug build/asan/citadel
unset CITADEL_WIRE_LOG

# --- the contract -------------------------------------------------------------
note "the contract (docs/api.schema.json)"
schema_check() {  # NAME COMMAND...: one result from a checker of tests/schema
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        echo "$out" | tail -n 1
        record pass "$name"
    else
        echo "$out" | tail -n 30
        record fail "$name"
    fi
}
# Debian's python3 with its python3-jsonschema (tools/setup test), or any
# python3 on the PATH that has the module
py=python3
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null && py=/usr/bin/python3
schema_check "schema: server-wire" $py tests/schema/check_wire.py "$wire_log"
schema_check "schema: docs" $py tests/schema/check_docs.py
schema_check "schema: quotas" $py tests/schema/check_quotas.py

# --- integration ------------------------------------------------------------
# Every tests/integration/test_*.sh. test_uci_field compares `citadel uci`
# with Debian's fairy-stockfish (tools/setup test) and skips without it.
note "integration (release build)"
for t in tests/integration/test_*.sh; do
    CITADEL=build/release/citadel TIER=release TAP_TIMEOUT=0 TAP_STATUS=ignore \
        run_tap integration-release "$(basename "$t" .sh)" bash "$t"
done
note "integration (ASan + UBSan build)"
for t in tests/integration/test_*.sh; do
    CITADEL=build/asan/citadel TIER=asan TAP_TIMEOUT=0 TAP_STATUS=ignore \
        run_tap integration-asan "$(basename "$t" .sh)" bash "$t"
done

# --- the engines as WebAssembly ------------------------------------------------
# The games compiled for the page (build/wasm/engine.wasm, read through its
# TypeScript wrapper) against the same C built natively: random games of
# every variant, every answer equal (tests/wasm/compare.mjs).
note "engines as WebAssembly"
if build wasm; then
    run_tap wasm "" node tests/wasm/compare.mjs
fi

# --- the web page ------------------------------------------------------------
# Type-checked, bundled, then driven in Debian's Chromium (playwright-core)
# against a real server; the browser tests print TAP (tests/browser/run.mjs),
# and keep screenshots in build/screenshots.
note "web page: type check and build"
if out=$(node web/gen-types.mjs 2>&1 && npx --no-install tsc --noEmit -p web 2>&1); then
    record pass "web: typecheck"
else
    echo "$out" | tail -n 40
    record fail "web: typecheck"
fi
if out=$(node web/build.mjs 2>&1); then
    record pass "web: build"
    note "web page: browser tests"
    TAP_TIMEOUT=900 run_tap browser "" node tests/browser/run.mjs
else
    echo "$out" | tail -n 40
    record fail "web: build"
fi

# --- fuzz -----------------------------------------------------------------
note "fuzz (libFuzzer, ${FUZZ_SECONDS}s each)"
# fuzz_one TARGET DIR: a bounded run of build/fuzz/TARGET on a copy of its
# corpus in DIR; leaves there its log and its exit status (DIR/rc).
fuzz_one() {
    local name=$1 work=$2 dict=()
    cp -r "tests/fuzz/corpus/$name"/. "$work"/ 2>/dev/null || true
    [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    timeout $((FUZZ_SECONDS + 60)) "build/fuzz/$name" -max_total_time="$FUZZ_SECONDS" -max_len=2048 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" "$work" \
        -artifact_prefix="$work/" >"$work/log" 2>&1
    echo $? >"$work/rc"
}
if build fuzz; then
    # each target is one process on one core: JOBS of them at once
    names=() works=()
    for f in build/fuzz/fuzz_*; do names+=("$(basename "$f")"); done
    for ((i = 0; i < ${#names[@]}; i += JOBS)); do
        batch=()
        for ((j = i; j < i + JOBS && j < ${#names[@]}; j++)); do
            works[j]=$(mktemp -d)
            (fuzz_one "${names[j]}" "${works[j]}") &
            batch+=($!)
        done
        wait "${batch[@]}"
    done
    for i in "${!names[@]}"; do
        name=${names[i]} work=${works[i]}
        if [ "$(cat "$work/rc" 2>/dev/null)" = 0 ]; then
            echo "fuzz $name: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$') runs, no failure"
            record pass "fuzz: $name"
        else
            tail -n 40 "$work/log"
            record fail "fuzz: $name"
        fi
        rm -rf "$work"
    done
fi

# --- summary ----------------------------------------------------------------
note "summary"
# The whole run as one TAP stream, numbered, in build/test-results.tap.
mkdir -p build
awk '{ sub(/^(not )?ok/, "& " NR); print } END { print "1.." NR }' "$RESULTS" \
    >build/test-results.tap
passed=$(grep -v '# SKIP' build/test-results.tap | grep -c '^ok ')
failed=$(grep -v '# SKIP' build/test-results.tap | grep -c '^not ok ')
skipped=$(grep -c '# SKIP' build/test-results.tap)
if [ "$failed" -gt 0 ]; then
    echo
    echo "failures:"
    grep '^not ok ' build/test-results.tap | sed 's/^not ok [0-9]* - //' | sort | uniq -c
fi
echo
echo "($skipped skipped; every result: build/test-results.tap)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
