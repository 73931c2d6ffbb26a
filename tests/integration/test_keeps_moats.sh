# test_keeps_moats.sh -- Keeps & Moats through `citadel perft` and `citadel uci`.
source "$(dirname "$0")/lib.sh"

START="bC/bNbKbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwPwPwPwPwPwP/wRwNwQwBwR/wBwKwN/wC w anarchy gained wrbu -,-,-,- - 1 200"
KM="setoption name UCI_Variant value keeps-moats"

total() { "$CITADEL" perft --variant keeps-moats "$@" 2>/dev/null | sed -n 's/^Nodes searched: //p'; }

# K7 perft from the start: the same first three plies for every game type.
for gt in 0 1 2; do
    expect "K7 perft GameType=$gt depth 1" 17 "$(total --depth 1 --set GameType=$gt)"
    expect "K7 perft GameType=$gt depth 2" 288 "$(total --depth 2 --set GameType=$gt)"
    expect "K7 perft GameType=$gt depth 3" 4879 "$(total --depth 3 --set GameType=$gt)"
    expect "K7 perft GameType=$gt depth 4" 82367 "$(total --depth 4 --set GameType=$gt)"
done
expect "K7 perft from the start string" 288 "$(total --depth 2 --fen "$START")"
expect "K6 perft with KingResult=2" 4879 "$(total --depth 3 --set KingResult=2)"

if [ "$TIER" = release ]; then
    # Deeper regressions, on the fast build only (docs/keeps-moats.md).
    expect "K7 perft neighbors depth 5" 1780208 "$(total --depth 5 --set GameType=0)"
    expect "K7 perft crossroad depth 5" 1798860 "$(total --depth 5 --set GameType=1)"
    expect "K7 perft anarchy depth 5" 1798860 "$(total --depth 5 --set GameType=2)"
    expect "K7 perft neighbors depth 6" 38347817 "$(total --depth 6 --set GameType=0)"
    expect "K7 perft anarchy depth 6" 39166540 "$(total --depth 6 --set GameType=2)"
fi

check_exit() {  # check_exit NAME WANT_RC ARGS...
    local name=$1 want=$2
    shift 2
    "$CITADEL" "$@" >/dev/null 2>&1
    expect "$name" "$want" "$?"
}
check_exit "K7 perft with a bad setting exits 2" 2 perft --variant keeps-moats --depth 1 --set GameType=7
check_exit "K7 perft with a bad --set exits 2" 2 perft --variant keeps-moats --depth 1 --set GameType
check_exit "K7 perft with a bad position exits 2" 2 perft --variant keeps-moats --depth 1 --fen "$START x"

# UCI.
out=$(uci uci)
expect_line "K7 uci lists GameType" "option name GameType type spin default 2 min 0 max 2" "$out"
expect_line "K7 uci lists KingResult" "option name KingResult type spin default 0 min 0 max 2" "$out"

out=$(uci "$KM" "position startpos" d)
expect_line "K7 startpos is the K7 start" "Fen: $START" "$out"
expect_line "K7 start is ongoing" "Result: ongoing" "$out"

out=$(uci "$KM" "setoption name GameType value 0" "setoption name KingResult value 1" "position startpos" d)
expect_line "K3 GameType and KingResult choose the start" \
    "Fen: ${START/anarchy gained/neighbors lost}" "$out"
out=$(uci "$KM" "setoption name GameType value 1" "setoption name KingResult value 2" "position startpos" d)
expect_line "K3 crossroad frozen start" "Fen: ${START/anarchy gained/crossroad frozen}" "$out"
out=$(uci "$KM" "setoption name MoveLimit value 30" "position startpos" d)
expect_line "K6 MoveLimit sets the limit field" "Fen: ${START% 200} 30" "$out"
out=$(uci "$KM" "setoption name GameType value 0" "position fen $START" d)
expect_line "K7 a position string keeps its own game type" "Fen: $START" "$out"

out=$(uci "$KM" "position startpos" "go perft 2")
lines=$(printf '%s\n' "$out" | grep -cE '^[a-q][0-9]+[a-q][0-9]+: [0-9]+$')
expect "K7 go perft 2 lists the 17 first moves" 17 "$lines"
expect_line "K7 go perft 2 total" "Nodes searched: 288" "$out"
expect_line "K7 go perft 3 total" "Nodes searched: 4879" "$(uci "$KM" 'position startpos' 'go perft 3')"

out=$(uci "$KM" "position startpos moves f4f6 d6e6 i16i17 n12m12 i2i1" d)
expect_line "K4 moves and castling via UCI" \
    "Fen: bK/bNbCbB/bRbBbQbNbR/bPbPbPbPbPbPbP/9/rP8uP1/rRrP9uPuR/rBrNrP9uPuBuN/rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/1rPwP7uP/9/1wPwPwPwPwPwP/wRwNwQwBwR/wBwCwN/wK r anarchy gained ru -,-,-,- - 2 200" "$out"

# Results in K7 form.
expect_line "K6 one kingdom left" "Result: white kings" \
    "$(uci "$KM" 'position fen 1/3/5/7/9/11/13/15/17/15/13/11/9/7/5/1wK1/1 w anarchy gained - -,-,-,- rbu 9 200' d)"
expect_line "K6 an alliance left" "Result: red+black kings" \
    "$(uci "$KM" 'position fen 1/3/5/7/9/11/13/15/rK16/15/13/3bK7/9/7/5/3/1 r neighbors gained - -,-,-,- wu 9 200' d)"
out=$(uci "$KM" 'position fen 1/3/5/7/9/11/13/15/rK16/15/13/3bK7/9/7/5/1wK1/1 r neighbors gained - -,-,-,- u 3 3 moves a9b9 g6g7' d)
expect_line "K6 move limit" "Result: draw move-limit" "$out"
out=$(uci "$KM" 'position fen 1/3/5/7/9/11/13/15/rK16/15/13/3bK7/9/7/5/1wK1/1 r neighbors gained - -,-,-,- u 3 3 moves a9b9 g6g7 i2i3' d)
expect_line "K6 no move after the end" \
    "info string error: illegal move i2i3: the game is over (draw move-limit)" "$out"
out=$(uci "$KM" 'position fen 1/3/5/7/9/11/13/14wR/rK14wRuK/14wR/13/11/9/7/5/3/1 u anarchy frozen - -,-,-,- wb 4 200 moves pass' d)
expect_line "K6 a walled-in kingdom passes" \
    "Fen: 1/3/5/7/9/11/13/14wR/rK14wRuK/14wR/13/11/9/7/5/3/1 r anarchy frozen - -,-,-,- wb 5 200" "$out"

# Errors leave the position in force.
out=$(uci "$KM" "position startpos moves f4f6" "position startpos moves f4f6 f6f7" d)
expect_line "K7 illegal move is refused" "info string error: illegal move f6f7: no red piece on the first square" "$out"
out=$(uci "$KM" "position startpos" "position fen $START x" d)
expect_line "K7 bad position is refused" \
    "info string error: bad position: more than nine fields: 'x'" "$out"
expect_line "K7 bad position keeps the previous one" "Fen: $START" "$out"
expect_line "K7 bad GameType is refused" "info string error: GameType must be 0-2" \
    "$(uci "$KM" 'setoption name GameType value 5')"

# Four-seat matches.
out=$("$CITADEL" match capture random --variant keeps-moats --games 8 --move-limit 60 --quiet)
if printf '%s\n' "$out" | grep -qE '^Score of capture vs 3x random \(anarchy\): [0-9]+ - [0-9]+ - [0-9]+  \[[0-9.]+\] 8$'; then
    pass "match keeps-moats prints the score"
else
    fail "match keeps-moats prints the score" "$out"
fi
if printf '%s\n' "$out" | grep -qE '^Win rate: [0-9.]+, 95% interval [0-9.]+-[0-9.]+$'; then
    pass "match keeps-moats prints the win rate and its interval"
else
    fail "match keeps-moats prints the win rate and its interval" "$out"
fi
out=$("$CITADEL" match balanced=1 capture --variant keeps-moats --games 4 --game-type 0 --move-limit 30 --quiet)
expect "match keeps-moats in Allied Neighbors" 1 "$(printf '%s\n' "$out" | grep -c '(neighbors): .* 4$')"
check_exit "match keeps-moats with a bad bot exits 2" 2 match balanced=9 capture --variant keeps-moats
check_exit "match keeps-moats with a bad game type exits 2" 2 match capture random --variant keeps-moats --game-type 3
check_exit "match keeps-moats with a bot that does not play it exits 2" 2 match greedy random --variant keeps-moats
out=$("$CITADEL" match --variant keeps-moats --help)
expect_line "match keeps-moats --help lists the variant's settings" \
    "      --game-type N        0 Allied Neighbors (White+Blue vs Black+Red), 1" "$out"
