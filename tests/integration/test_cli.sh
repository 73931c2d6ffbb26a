# test_cli.sh -- `citadel perft`, `bench`, `variants` and bad arguments.
source "$(dirname "$0")/lib.sh"

total() { "$CITADEL" perft "$@" 2>/dev/null | sed -n 's/^Nodes searched: //p'; }

expect "perft Classic depth 1" 19 "$(total --variant rampart --depth 1)"
expect "perft Classic depth 2" 358 "$(total --variant rampart --depth 2)"
expect "perft Classic depth 3" 8248 "$(total --variant rampart --depth 3)"
expect "perft Classic depth 4" 188864 "$(total --variant rampart --depth 4)"
expect "perft XL depth 4" 597600 "$(total --variant rampart-xl --depth 4)"
expect "perft Fun Zone rampart-six depth 3" 9654 "$(total --variant rampart-six --depth 3)"
expect "perft shuffle seed 0 depth 3" 8640 "$(total --variant rampart-shuffle --depth 3)"
expect "perft from a position" 19 \
    "$(total --variant rampart --depth 1 --fen '1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1')"
expect "R7 perft with a move limit counts up to the limit" 358 \
    "$(total --variant rampart --depth 2 --move-limit 1)"
expect "R7 perft with a move limit stops at the limit" 0 \
    "$(total --variant rampart --depth 3 --move-limit 1)"

if [ "$TIER" = release ]; then
    # Deeper regressions, on the fast build only.
    expect "perft Classic depth 5" 4789872 "$(total --variant rampart --depth 5)"
    expect "perft Classic depth 6" 120750024 "$(total --variant rampart --depth 6)"
    expect "perft Classic depth 7" 3287363952 "$(total --variant rampart --depth 7)"
    expect "perft XL depth 5" 20769770 "$(total --variant rampart-xl --depth 5)"
    expect "perft XL depth 6" 719851292 "$(total --variant rampart-xl --depth 6)"
    out=$("$CITADEL" bench perft --depth 5)
    expect_line "bench perft counts the nodes" "Nodes: 4789872" "$out"
    if printf '%s\n' "$out" | grep -qE '^NPS: [0-9]+$'; then pass "bench perft prints NPS"; else fail "bench perft prints NPS" "$out"; fi
fi

out=$("$CITADEL" variants)
for v in rampart rampart-xl rampart-six rampart-narrow rampart-mini rampart-shuffle; do
    if printf '%s\n' "$out" | grep -q "^$v "; then pass "variants lists $v"; else fail "variants lists $v" "$out"; fi
done
expect "R10 exactly two rated forms" 2 "$(printf '%s\n' "$out" | grep '^rampart' | grep -c ' rated ')"

check_exit() {  # check_exit NAME WANT_RC ARGS...
    local name=$1 want=$2
    shift 2
    "$CITADEL" "$@" >/dev/null 2>&1
    expect "$name" "$want" "$?"
}
check_exit "no command exits 2" 2
check_exit "unknown command exits 2" 2 fly
check_exit "perft without depth exits 2" 2 perft --variant rampart
check_exit "perft with a bad depth exits 2" 2 perft --depth x
check_exit "perft with an unknown variant exits 2" 2 perft --variant chess --depth 1
check_exit "perft with a bad position exits 2" 2 perft --depth 1 --fen 'nonsense b 1'
check_exit "help exits 0" 0 help
