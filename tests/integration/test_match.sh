# test_match.sh -- `citadel match`: the result lines, the records, bad arguments.
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
at_exit 'rm -rf "$work"'

out=$(timeout 120 "$CITADEL" match greedy random --games 4 --nodes 50 --movetime 20 \
    --move-limit 30 --seed 7 --records "$work/games.txt" --quiet 2>"$work/err")
rc=$?
expect "a short match exits 0" 0 "$rc"
score=$(printf '%s\n' "$out" | sed -n 1p)
if [[ $score =~ ^Score\ of\ greedy\ vs\ random:\ ([0-9]+)\ -\ ([0-9]+)\ -\ ([0-9]+)\ \ \[([01]\.[0-9]{3})\]\ 4$ ]]; then
    pass "the score line has the exact format"
    w=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]} d=${BASH_REMATCH[3]}
    expect "the score adds up to the games" 4 "$((w + l + d))"
    want=$(awk -v w="$w" -v d="$d" 'BEGIN { printf "%.3f", (w + d / 2) / 4 }')
    expect "the score in brackets is (W + D/2) / N" "$want" "${BASH_REMATCH[4]}"
else
    fail "the score line has the exact format" "$out$(cat "$work/err")"
    w=x l=x d=x
fi
if printf '%s\n' "$out" | sed -n 2p | grep -qE '^Elo difference: -?([0-9]+\.[0-9]|inf) \+/- ([0-9]+\.[0-9]|inf)$'; then
    pass "the Elo line has the exact format"
else
    fail "the Elo line has the exact format" "$out"
fi
expect "two lines without --sprt" 2 "$(printf '%s\n' "$out" | wc -l)"
expect "--quiet prints nothing on stderr" "" "$(cat "$work/err")"

# Records: 4 games in PGN (docs/pgn.md) whose Result tags agree with the
# score line (greedy is A; White is Bottom, the side that moves first).
rec=$work/games.txt
expect "the records hold 4 games" 4 "$(grep -c '^\[Event "citadel match"\]' "$rec")"
tally=$(awk '
    /^\[White / { white = $2 } /^\[Black / { black = $2 }
    /^\[Result / {
        r = $2; gsub(/[]"]/, "", r)
        if (r == "1/2-1/2") d++
        else if ((r == "1-0" && white == "\"greedy\"]") || (r == "0-1" && black == "\"greedy\"]")) w++
        else l++
    }
    END { printf "%d-%d-%d", w, l, d }' "$rec")
expect "the records' results agree with the score" "$w-$l-$d" "$tally"
expect "colours alternate: greedy is White in 2 games" 2 "$(grep -c '^\[White "greedy"\]' "$rec")"
expect "White is Bottom, named by the game's side too" 4 \
    "$(paste -d' ' <(grep '^\[White ' "$rec" | cut -d' ' -f2) <(grep '^\[Bottom ' "$rec" | cut -d' ' -f2) |
        awk '$1 == $2' | wc -l)"
expect "every record names its variant" 4 "$(grep -c '^\[Variant "rampart"\]' "$rec")"
expect "every record has the move limit" 4 "$(grep -c '^\[MoveLimit "30"\]' "$rec")"
expect "every record has the engine's reason" 4 "$(grep -cE '^\[Reason "[a-z-]+"\]' "$rec")"
expect "every record ends normally in PGN's words" 4 "$(grep -c '^\[Termination "normal"\]' "$rec")"
expect "no clock: TimeControl is -" 4 "$(grep -c '^\[TimeControl "-"\]' "$rec")"
expect "the limits per move in a tag of their own" 4 "$(grep -c '^\[Limits "movetime=20 nodes=50"\]' "$rec")"
expect "the Classic start needs no FEN" 0 "$(grep -c '^\[FEN ' "$rec")"
expect "the rounds count the games" "1 2 3 4" "$(sed -n 's/^\[Round "\(.*\)"\]$/\1/p' "$rec" | sort -n | paste -sd' ')"
if grep -qE '^1\. [a-i][0-9][a-i][0-9] [a-i][0-9][a-i][0-9] 2\. ' "$rec"; then
    pass "moves are numbered 1. c4c5 b6a6 2. ..."
else
    fail "moves are numbered 1. c4c5 b6a6 2. ..." "$(head -n 30 "$rec")"
fi
# Both games of a pair start alike.
first=$(awk '/^1\. /{ print $2, $3, $5, $6; exit }' "$rec")
second=$(awk '/^1\. /{ n++ } n == 2 && /^1\. /{ print $2, $3, $5, $6; exit }' "$rec")
expect "a pair shares its opening" "$first" "$second"
# The first game's moves replay in `citadel uci` to the recorded result.
moves=$(awk '/^$/ { if (body) exit; body = 1; next }
    body { for (i = 1; i <= NF; i++) if ($i !~ /\.$/) printf " %s", $i }' "$rec" |
    sed 's/ [-0-9\/]*$//')
result=$(sed -n '1,/^$/s/^\[Result "\(.*\)"\]$/\1/p' "$rec" |
    sed 's/^1-0$/bottom/; s/^0-1$/top/; s/^1\/2-1\/2$/draw/')
reason=$(sed -n '1,/^$/s/^\[Reason "\(.*\)"\]$/\1/p' "$rec")
expect_line "a record replays to its result" "Result: $result $reason" \
    "$(uci "setoption name MoveLimit value 30" "position startpos moves$moves" d)"
# A strict reader of PGN's export format reads every record, and
# `citadel pgn check` replays them all.
out=$(python3 tests/pgn/strict_pgn.py "$rec" 2>&1)
expect "a strict PGN reader reads the match's records" "$rec: 4 games" "$out"
out=$("$CITADEL" pgn check "$rec" 2>&1)
expect "citadel pgn check replays the match's records" "0 4 games: 4 ok, 0 with errors" \
    "$? $(printf '%s\n' "$out" | tail -n 1)"

# Openings from a PGN file: each pair starts from the next game's start
# and its first plies, in the file's order.
out=$(timeout 120 "$CITADEL" match greedy random --games 4 --nodes 50 --move-limit 30 \
    --openings "$rec" --openings-plies 6 --records "$work/book.pgn" --quiet 2>&1)
expect "a match with --openings exits 0" 0 "$?"
book_line() {  # book_line FILE N: the first 6 plies of game N
    awk -v n="$2" '/^$/ { b++ } b == 2 * n - 1 && /^1\. / { print $2, $3, $5, $6, $8, $9; exit }' "$1"
}
expect "pair 1 opens with the file's first game" "$(book_line "$rec" 1)" "$(book_line "$work/book.pgn" 1)"
expect "pair 1's second game too" "$(book_line "$rec" 1)" "$(book_line "$work/book.pgn" 2)"
expect "pair 2 opens with the file's second game" "$(book_line "$rec" 2)" "$(book_line "$work/book.pgn" 3)"
expect "the opening plies are counted" 4 "$(grep -c '^\[OpeningPlies "6"\]' "$work/book.pgn")"
out=$(timeout 120 "$CITADEL" match greedy random --games 2 --nodes 50 --openings "$rec" 2>&1)
if [ $? -eq 2 ] && printf '%s\n' "$out" | grep -q 'more than 40 (give --openings-plies)'; then
    pass "whole games as openings need --openings-plies"
else
    fail "whole games as openings need --openings-plies" "$out"
fi
sed 's/^1\. \([a-i][0-9]\)[a-i][0-9]/1. \1\1/' "$rec" >"$work/illegal.pgn"
out=$(timeout 120 "$CITADEL" match greedy random --games 2 --nodes 50 --openings "$work/illegal.pgn" \
    --openings-plies 4 2>&1)
if [ $? -eq 2 ] && printf '%s\n' "$out" | grep -qE 'game 1: line [0-9]+: move 1 '; then
    pass "an opening with an illegal move is refused with its line"
else
    fail "an opening with an illegal move is refused with its line" "$out"
fi
out=$(timeout 120 "$CITADEL" match greedy random --games 2 --nodes 50 --variant rampart-xl \
    --openings "$rec" --openings-plies 4 2>&1)
if [ $? -eq 2 ] && printf '%s\n' "$out" | grep -q 'a game of rampart, not rampart-xl'; then
    pass "openings of another variant are refused"
else
    fail "openings of another variant are refused" "$out"
fi

# An SPRT line, and a match stopped by it.
out=$(timeout 120 "$CITADEL" match greedy random --games 200 --move-limit 20 --nodes 10 --quiet \
    --sprt elo0=-400 elo1=-300 alpha=0.1 beta=0.1)
if printf '%s\n' "$out" | sed -n 3p |
    grep -qE '^SPRT: llr -?[0-9]+\.[0-9]{2} \(lbound -2\.20, ubound 2\.20\) - H[01] was accepted$'; then
    pass "the SPRT line has the exact format and a verdict"
else
    fail "the SPRT line has the exact format and a verdict" "$out"
fi
n=$(printf '%s\n' "$out" | sed -n 's/.*\] \([0-9]*\)$/\1/p')
if [ -n "$n" ] && [ "$n" -lt 200 ]; then pass "the SPRT stops the match early"; else fail "the SPRT stops the match early" "$out"; fi

# Clocks and threads: every game is counted once.
out=$(timeout 120 "$CITADEL" match random greedy --games 5 --tc 2+0.01 --concurrency 3 \
    --move-limit 20 --variant rampart-shuffle --records "$work/clock.pgn" --quiet)
if printf '%s\n' "$out" | grep -qE '^Score of random vs greedy: [0-9]+ - [0-9]+ - [0-9]+  \[[01]\.[0-9]{3}\] 6$'; then
    pass "--games rounds up to even; threads and clocks count every game"
else
    fail "--games rounds up to even; threads and clocks count every game" "$out"
fi

# Their records: clocks as %clk comments, a fractional clock's TimeControl
# unknown to PGN (?), the shuffled start as SetUp and FEN.
clk=$work/clock.pgn
expect "a fractional clock is ? in TimeControl" 6 "$(grep -c '^\[TimeControl "?"\]' "$clk")"
expect "the clock's limits in the Limits tag" 6 "$(grep -c '^\[Limits "2+0.01"\]' "$clk")"
expect "a shuffled start is SetUp 1 with its FEN" "6 6" \
    "$(grep -c '^\[SetUp "1"\]' "$clk") $(grep -c '^\[FEN "' "$clk")"
if grep -qE '^1\. [a-i][0-9][a-i][0-9] \{\[%clk 0:00:02\]\} 1\.\.\. ' "$clk"; then
    pass "clocks are {[%clk h:mm:ss]} after each move, a number after each comment"
else
    fail "clocks are {[%clk h:mm:ss]} after each move, a number after each comment" "$(head -n 30 "$clk")"
fi
out=$(python3 tests/pgn/strict_pgn.py "$clk" 2>&1)
expect "a strict PGN reader reads the clocked records" "$clk: 6 games" "$out"
out=$("$CITADEL" pgn check "$clk" 2>&1)
expect "citadel pgn check replays the clocked records" "0 6 games: 6 ok, 0 with errors" \
    "$? $(printf '%s\n' "$out" | tail -n 1)"

check_exit() {  # check_exit NAME WANT_RC ARGS...
    local name=$1 want=$2
    shift 2
    "$CITADEL" "$@" >/dev/null 2>&1
    expect "$name" "$want" "$?"
}
check_exit "match without bots exits 2" 2 match
check_exit "match with one bot exits 2" 2 match greedy
check_exit "match with a bad bot exits 2" 2 match greedy nonsense --games 2
check_exit "match with an unknown option exits 2" 2 match greedy random --fly 3
check_exit "match with bad --games exits 2" 2 match greedy random --games x
check_exit "match with bad --tc exits 2" 2 match greedy random --tc 10+
check_exit "match with an unknown variant exits 2" 2 match greedy random --variant chess
check_exit "match with bad SPRT bounds exits 2" 2 match greedy random --sprt elo0=10 elo1=0
check_exit "match with a missing value exits 2" 2 match greedy random --games
err=$("$CITADEL" match greedy random --games x 2>&1 >/dev/null)
if printf '%s\n' "$err" | grep -q -- '--games' && printf '%s\n' "$err" | grep -q 'usage: citadel match'; then
    pass "a bad argument says what is wrong and shows the usage"
else
    fail "a bad argument says what is wrong and shows the usage" "$err"
fi
