# lib.sh -- helpers for integration tests that drive the built `citadel`.
#
# A test script prints TAP (the format of every tier of tests/run.sh): one
# "ok N - NAME" or "not ok N - NAME" line per check, what went wrong as "# "
# lines under a failure, and the plan "1..N" when the script ends. CITADEL (the binary) and TIER (a label) come from
# tests/run.sh, which reads that output. Run one script alone with:
#   CITADEL=build/release/citadel bash tests/integration/test_uci.sh
#
# A script that must clean up when it ends says so with at_exit CMD (an
# EXIT trap of its own would take the plan's place).

: "${CITADEL:=build/release/citadel}"
: "${TIER:=release}"

tap_count=0
tap_at_exit=
at_exit() { tap_at_exit="$tap_at_exit$1
"; }
trap 'eval "$tap_at_exit"; echo "1..$tap_count"' EXIT

pass() { tap_count=$((tap_count + 1)); echo "ok $tap_count - $1"; }
fail() {
    tap_count=$((tap_count + 1))
    echo "not ok $tap_count - $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 30 | sed 's/^/#     /'
    return 0
}

# expect NAME WANT GOT: passes when GOT equals WANT.
expect() {
    if [ "$2" == "$3" ]; then pass "$1"; else fail "$1" "want: $2
got:  $3"; fi
}

# expect_in NAME NEEDLE HAYSTACK: passes when NEEDLE is a line of HAYSTACK.
expect_line() {
    if printf '%s\n' "$3" | grep -qxF -- "$2"; then pass "$1"; else fail "$1" "no line '$2' in:
$3"; fi
}

# uci LINES...: runs `citadel uci` with the lines as input (quit is added).
# A quit read while a search runs stops it: to see a search to its end, use
# uci_search.
uci() {
    printf '%s\n' "$@" quit | timeout 120 "$CITADEL" uci
}

# uci_search LINES...: as uci, but quit is sent only once the engine has
# answered bestmove (or after 120 s).
uci_search() {
    local line
    coproc ENGINE { timeout 120 "$CITADEL" uci; }
    printf '%s\n' "$@" >&"${ENGINE[1]}"
    while IFS= read -r -t 120 line <&"${ENGINE[0]}"; do
        printf '%s\n' "$line"
        case $line in bestmove*) break ;; esac
    done
    printf 'quit\n' >&"${ENGINE[1]}" 2>/dev/null
    wait "$ENGINE_PID" 2>/dev/null
    return 0
}
