# test_uci_field.sh -- `citadel uci` answers in the shapes Fairy-Stockfish
# does, as match runners (variantfishtest) and python-chess read them: the
# same command sequences to both, the shapes of the answers compared
# (tests/integration/uci_field.py). Fairy-Stockfish is Debian's
# fairy-stockfish (bash tools/setup test), in /usr/games; without it, or
# without python3, the test is skipped.
: "${CITADEL:=build/release/citadel}"

fsf=$(command -v fairy-stockfish || true)
[ -z "$fsf" ] && [ -x /usr/games/fairy-stockfish ] && fsf=/usr/games/fairy-stockfish
if [ -z "$fsf" ]; then
    echo "ok 1 # SKIP fairy-stockfish is not installed (bash tools/setup test)"
    echo "1..1"
    exit 0
fi
if ! command -v python3 >/dev/null; then
    echo "ok 1 # SKIP python3 is not installed"
    echo "1..1"
    exit 0
fi
exec timeout 300 python3 "$(dirname "$0")/uci_field.py" "$CITADEL" "$fsf"
