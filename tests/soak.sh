#!/usr/bin/env bash
# tests/soak.sh -- the short soak: the sanitizer build of `citadel serve` under
# tools/load with spectators and churn, until 300 games have ended.
#
#   CITADEL=build/asan/citadel LOAD=build/release/load bash tests/soak.sh
#
# Starts the server on a free loopback port with a fresh database, the
# per-address quotas lifted (one address plays every game) and --abandon-ms
# 8000; runs load with 40 games at once of rampart-mini (move limit 50, the
# smallest that /api/variants offers for it), 5 ms move delay, 20
# spectators, churn 0.05, until 300 games have ended (240 s at most); then
# checks /api/health, stops the server with SIGTERM and reads its log.
#
# TAP, as every tier of tests/run.sh prints: one "ok N - NAME" or "not ok
# N - NAME" line per check (why, and what the tools printed, as "# " lines),
# the time taken, and the plan "1..N" at the end. Exit status 0 only if
# every check passed.
# About 20 s on a 2-core machine: load paces each connection to 18 messages
# a second, and that, not the server, sets the pace here. LSAN_OPTIONS
# (suppressions=FILE, say) passes through to the server.
set -uo pipefail
cd "$(dirname "$0")/.."

CITADEL=${CITADEL:-build/asan/citadel}
LOAD=${LOAD:-build/release/load}
GAMES_TOTAL=300
T0=$(date +%s.%N)

work=$(mktemp -d)
server_pid=
failed=0
checks=0
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -KILL "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    rm -rf "$work"
    echo "1..$checks"
}
trap cleanup EXIT

ok() { checks=$((checks + 1)); echo "ok $checks - $1"; }
fail() {
    checks=$((checks + 1))
    echo "not ok $checks - $1"
    echo "# $2"
    failed=1
}
elapsed() { echo "# soak: $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"; }
indent() { sed 's/^/#     /'; }

for bin in "$CITADEL" "$LOAD"; do
    if [ ! -x "$bin" ]; then
        fail soak-setup "no executable $bin (make asan load)"
        elapsed
        exit 1
    fi
done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# --- the server -------------------------------------------------------------------
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$CITADEL" serve --listen 127.0.0.1:0 --db "$work/soak.db" --abandon-ms 8000 \
    --limit guests-per-hour=0 --limit ws-per-address=0 \
    --limit new-games-per-hour=0 --limit games-at-once=0 >"$work/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 1 300); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log")
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    fail soak-server-start "the server did not start listening"
    indent <"$work/server.log" | head -n 30
    elapsed
    exit 1
fi
ok soak-server-start

# --- the load ---------------------------------------------------------------------
timeout 300 "$LOAD" --port "$port" --games 40 --variant rampart-mini --move-limit 50 \
    --move-delay-ms 5 --spectators 20 --churn 0.05 --games-total "$GAMES_TOTAL" \
    --duration 240 >"$work/load.out" 2>&1
load_rc=$?
indent <"$work/load.out"
errors_line=$(grep -m1 '^errors:' "$work/load.out" || true)
if [ "$load_rc" -eq 0 ]; then
    ok soak-load
else
    fail soak-load "load exited with $load_rc${errors_line:+ ($errors_line)}"
fi
finished=$(sed -n 's/^games: started [0-9]*, finished \([0-9]*\)$/\1/p' "$work/load.out")
if [ "${finished:-0}" -ge "$GAMES_TOTAL" ]; then
    ok soak-games
else
    fail soak-games "${finished:-no} games finished, not $GAMES_TOTAL, in 240 s"
fi

# --- health, stop, log --------------------------------------------------------------
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$port/api/health")
if [ "$code" = 200 ]; then
    ok soak-health
else
    fail soak-health "GET /api/health answered ${code:-nothing}"
fi

kill -TERM "$server_pid" 2>/dev/null
for _ in $(seq 1 600); do   # 60 s: the sanitizer build's leak check takes a while
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null
    wait "$server_pid" 2>/dev/null
    server_pid=
    fail soak-server-exit "still running 60 s after SIGTERM (killed)"
else
    wait "$server_pid"
    status=$?
    server_pid=
    if [ "$status" -eq 0 ]; then
        ok soak-server-exit
    else
        fail soak-server-exit "exit status $status after SIGTERM"
    fi
fi

pattern='ERROR: AddressSanitizer|runtime error|LeakSanitizer|broken link'
bad=$(grep -E "$pattern" "$work/server.log" | head -n 3 | tr '\n' ' ')
if [ -z "$bad" ]; then
    ok soak-server-log
else
    fail soak-server-log "$bad"
    first=$(grep -n -m1 -E "$pattern" "$work/server.log" | cut -d: -f1)
    sed -n "${first},$((first + 30))p" "$work/server.log" | indent
fi
elapsed
exit "$failed"
