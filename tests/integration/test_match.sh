# test_match.sh -- `citadel match`: the result lines, the records, bad arguments.
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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

# Records: 4 games whose Result tags agree with the score line (greedy is A).
rec=$work/games.txt
expect "the records hold 4 games" 4 "$(grep -c '^\[Game ' "$rec")"
tally=$(awk '
    /^\[Bottom / { bottom = $2 } /^\[Top / { top = $2 }
    /^\[Result / {
        r = $2; gsub(/[]"]/, "", r)
        if (r == "draw") d++
        else if ((r == "bottom" && bottom == "\"greedy\"]") || (r == "top" && top == "\"greedy\"]")) w++
        else l++
    }
    END { printf "%d-%d-%d", w, l, d }' "$rec")
expect "the records' results agree with the score" "$w-$l-$d" "$tally"
expect "colours alternate: greedy is Bottom in 2 games" 2 "$(grep -c '^\[Bottom "greedy"\]' "$rec")"
expect "every record names its variant" 4 "$(grep -c '^\[Variant "rampart"\]' "$rec")"
expect "every record has the move limit" 4 "$(grep -c '^\[MoveLimit "30"\]' "$rec")"
expect "every record has a reason" 4 "$(grep -cE '^\[Reason "[a-z-]+"\]' "$rec")"
if grep -qE '^1\. [a-i][0-9][a-i][0-9] [a-i][0-9][a-i][0-9] 2\. ' "$rec"; then
    pass "moves are numbered 1. c4c5 b6a6 2. ..."
else
    fail "moves are numbered 1. c4c5 b6a6 2. ..." "$(head -n 20 "$rec")"
fi
# Both games of a pair start alike.
first=$(awk '/^1\. /{ print $2, $3, $5, $6; exit }' "$rec")
second=$(awk '/^1\. /{ n++ } n == 2 && /^1\. /{ print $2, $3, $5, $6; exit }' "$rec")
expect "a pair shares its opening" "$first" "$second"
# The first game's moves replay in `citadel uci` to the recorded result.
moves=$(awk '/^\[Reason/ { body = 1; next } body && /^$/ && seen { exit }
    body && NF { seen = 1; for (i = 1; i <= NF; i++) if ($i !~ /\.$/) printf " %s", $i }' "$rec" |
    sed 's/ [a-z]*$//')
result=$(sed -n '1,/^\[Reason/s/^\[\(Result\|Reason\) "\(.*\)"\]$/\2/p' "$rec" | paste -sd' ')
expect_line "a record replays to its result" "Result: $result" \
    "$(uci "setoption name MoveLimit value 30" "position startpos moves$moves" d)"

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
    --move-limit 20 --variant rampart-shuffle --quiet)
if printf '%s\n' "$out" | grep -qE '^Score of random vs greedy: [0-9]+ - [0-9]+ - [0-9]+  \[[01]\.[0-9]{3}\] 6$'; then
    pass "--games rounds up to even; threads and clocks count every game"
else
    fail "--games rounds up to even; threads and clocks count every game" "$out"
fi

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
