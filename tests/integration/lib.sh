# lib.sh -- helpers for integration tests that drive the built `citadel`.
#
# A test script sets nothing itself: CITADEL (the binary), TIER (a label) and
# RESULTS (the file where outcomes are recorded) come from tests/run.sh.
# Run one script alone with:
#   CITADEL=build/release/citadel RESULTS=/dev/stdout bash tests/integration/test_uci.sh

: "${CITADEL:=build/release/citadel}"
: "${TIER:=release}"
: "${RESULTS:=/dev/null}"
SCRIPT=$(basename "$0" .sh)

pass() { echo "ok   $TIER $SCRIPT: $1"; echo "pass $TIER:$SCRIPT:$1" >>"$RESULTS"; }
fail() {
    echo "FAIL $TIER $SCRIPT: $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 30 | sed 's/^/     | /'
    echo "fail $TIER:$SCRIPT:$1" >>"$RESULTS"
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
