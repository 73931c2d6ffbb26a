# test_stratego.sh -- Stratego through `citadel uci` and `citadel perft`.
source "$(dirname "$0")/lib.sh"

START="bbnbnoenbf/bnajloeanb/eljcscolje/oaogomloao/2~~2~~2/2~~2~~2/OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB r 0 - -"
V="setoption name UCI_Variant value stratego"

out=$(uci "$V" d)
expect_line "S1 stratego start via UCI" "Fen: $START" "$out"
expect_line "stratego start is ongoing" "Result: ongoing" "$out"

out=$(uci "$V" "position startpos" "go perft 3")
expect_line "stratego go perft 3" "Nodes searched: 1889" "$out"
lines=$(printf '%s\n' "$out" | grep -cE '^[a-j]([1-9]|10)[a-j]([1-9]|10): [0-9]+$')
expect "stratego go perft 3 lists the 12 first moves" 12 "$lines"
expect_line "stratego perft 4 from the command line" "Nodes searched: 25908" \
    "$(timeout 60 "$CITADEL" perft --variant stratego --depth 4 2>/dev/null)"

out=$(uci "$V" "position startpos moves a4a5 a7a6 a5a6" d)
expect_line "S5 Scout meets Scout: both removed" \
    "Fen: bbnbnoenbf/bnajloeanb/eljcscolje/1aogomloao/2~~2~~2/2~~2~~2/1AOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB b 3 a5a6:1 a7a6:1" "$out"

out=$(uci "$V" "position fen 9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/F9 r 0 - -" d)
expect_line "S7 no movable piece loses via UCI" "Result: blue no-moves" "$out"
out=$(uci "$V" "position fen 9f/O+9/10/10/2~~2~~2/2~~2~~2/10/10/E+9/F9 r 0 - - moves a9a10 j10j9" d)
expect_line "S7 Blue without a move has lost; no move after the end" \
    "info string error: illegal move j10j9: the game is over (red no-moves)" "$out"
out=$(uci "$V" "position fen 8of/O+9/10/10/2~~2~~2/2~~2~~2/10/10/E+9/F9 r 0 - - moves a9j9 i10i9 j9j10" d)
expect_line "S7 Flag captured via UCI" "Result: red flag" "$out"

out=$(uci "$V" "setoption name MoveLimit value 2" "position startpos moves a4a5 a7a6" d)
expect_line "S7 move limit via UCI" "Result: draw move-limit" "$out"
out=$(uci "$V" "position startpos moves a4a5 a7a6" d)
expect_line "S7 default move limit is not the Rampart one" "Result: ongoing" "$out"

out=$(uci "$V" "position startpos moves a4a5 a7a6 a5a4 a6a7 a4a5 a7a6 a5a4")
expect_line "S6 fourth move between two squares refused via UCI" \
    "info string error: illegal move a5a4: the two-square rule forbids a fourth move between the same two squares" "$out"
out=$(uci "$V" "position startpos moves c4c5")
expect_line "S1 move into a lake refused" \
    "info string error: malformed move 'c4c5' (write it as a4a5; lakes are no squares)" "$out"
out=$(uci "$V" "position fen 9f/10/10/10/2~~2~~2/2~~2~~2/10/10/10/FMM7 r 0 - -")
expect_line "S2 an army too large is refused" \
    "info string error: bad position: Red has 2 Marshals; an army has 1" "$out"

# `go` on Stratego plays the level's own player on the view of the side to
# move (S8): two positions that differ only in what Red cannot see (Blue's
# setup rearranged) get the same move, and no searcher's "info depth" line.
# `quit` would stop the thinking early, so it waits for the bestmove.
uci_done() {
    local tmp
    tmp=$(mktemp)
    { printf '%s\n' "$@"; for _ in $(seq 600); do grep -q '^bestmove' "$tmp" && break; sleep 0.1; done
      echo quit; } | timeout 120 "$CITADEL" uci >"$tmp"
    cat "$tmp"
    rm -f "$tmp"
}
OTHER="fbneonbnbb/bnajloeanb/eljcscolje/oaogomloao/2~~2~~2/2~~2~~2/OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB r 0 - -"
for nodes in 2000 5000; do
    a=$(uci_done "$V" "position startpos" "go nodes $nodes" | grep '^bestmove')
    b=$(uci_done "$V" "position fen $OTHER" "go nodes $nodes" | grep '^bestmove')
    expect "S8 go on stratego sees only the view ($nodes nodes)" "$a" "$b"
done
out=$(uci_done "$V" "position startpos" "go nodes 2000")
expect "S8 go on stratego is the view player, not the searcher" 0 \
    "$(printf '%s\n' "$out" | grep -c '^info depth')"

# Bots on Stratego through `citadel match` (views only; the variant's own
# move limit of 1000 plies when none is given).
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
out=$(timeout 300 "$CITADEL" match level=1 attacker --variant stratego --games 2 --movetime 5 \
    --seed 3 --records "$work/games.txt" --quiet 2>&1)
expect "a Stratego match exits 0" 0 "$?"
score=$(printf '%s\n' "$out" | sed -n 1p)
if [[ $score =~ ^Score\ of\ level=1\ vs\ attacker:\ ([0-9]+)\ -\ ([0-9]+)\ -\ ([0-9]+)\ \ \[[01]\.[0-9]{3}\]\ 2$ ]]; then
    expect "the Stratego match score adds up" 2 \
        "$((BASH_REMATCH[1] + BASH_REMATCH[2] + BASH_REMATCH[3]))"
else
    fail "the Stratego match score adds up" "$out"
fi
expect_line "S7 a Stratego match takes the 1000-ply move limit" '[MoveLimit "1000"]' \
    "$(sort -u "$work/games.txt")"
expect "Stratego records hold two games" 2 "$(grep -c '^\[Variant "stratego"\]' "$work/games.txt")"

# `citadel belief`: the belief the strongest level reads off its views
# finds the true rank of pieces that never moved (Bombs, the Flag, pieces
# held back) far better than the counts alone, over the two recorded games.
out=$(timeout 300 "$CITADEL" belief "$work/games.txt" 2>&1)
expect "citadel belief reads the records" 0 "$?"
expect "citadel belief scores both games" 1 "$(printf '%s\n' "$out" | grep -cE '^games 2, plies [1-9][0-9]*$')"
row=$(printf '%s\n' "$out" | grep '^never moved')
if [[ $row =~ ^never\ moved\ +[0-9]+\ +(0\.[0-9]+)\ +(0\.[0-9]+)$ ]]; then
    expect "S8 the belief beats the counts on pieces that never moved" 1 \
        "$(awk -v b="${BASH_REMATCH[1]}" -v c="${BASH_REMATCH[2]}" 'BEGIN { print (b > c + 0.05) }')"
else
    fail "S8 the belief beats the counts on pieces that never moved" "$out"
fi
# Then how each player played, as the match scored it: the same
# won-lost-drawn, and the attacker (which attacks whatever it can reach)
# runs pieces other than Miners into pieces that never moved.
w=x l=x d=x
if [[ $score =~ ^Score\ of\ level=1\ vs\ attacker:\ ([0-9]+)\ -\ ([0-9]+)\ -\ ([0-9]+) ]]; then
    w=${BASH_REMATCH[1]} l=${BASH_REMATCH[2]} d=${BASH_REMATCH[3]}
fi
expect "citadel belief gives level=1's play as the match scored it" "level=1 2 $w-$l-$d" \
    "$(printf '%s\n' "$out" | awk '$1 == "level=1" { print $1, $2, $3 }')"
expect "citadel belief gives the attacker's play as the match scored it" "attacker 2 $l-$w-$d" \
    "$(printf '%s\n' "$out" | awk '$1 == "attacker" { print $1, $2, $3 }')"
expect "the attacker attacks pieces that never moved" 1 \
    "$(printf '%s\n' "$out" | awk '$1 == "attacker" { print ($5 > 0) }')"
expect "citadel belief refuses a missing file" 1 \
    "$("$CITADEL" belief "$work/none.txt" > /dev/null 2>&1; echo $?)"
# Each player's row ends with how well the other side read its moved
# pieces: a chance, beside the counts'. --features reads the games with
# bots of other features (here the first version's: none), and refuses
# features no bot has.
expect "citadel belief gives a chance of the true rank of each player's moved pieces" 1 \
    "$(printf '%s\n' "$out" | awk '$1 == "level=1" { print ($(NF-1) > 0 && $(NF-1) <= 1 && $NF > 0 && $NF <= 1) }')"
out0=$(timeout 300 "$CITADEL" belief --features 0 "$work/games.txt" 2>&1)
expect "citadel belief --features 0 scores both games" 1 "$(printf '%s\n' "$out0" | grep -cE '^games 2, plies [1-9][0-9]*$')"
expect "citadel belief refuses features no bot has" 2 \
    "$("$CITADEL" belief --features 1073741824 "$work/games.txt" > /dev/null 2>&1; echo $?)"

# `citadel belief-fit`: the learned belief (belief_net.h) fitted to
# recorded games learns what a player's moves tell of its pieces: on the
# games it held out, the net gives the true rank of moved pieces a higher
# chance than the counts alone. Its output is C that compiles as the
# bots' weights, the same for the same records.
out=$(timeout 300 "$CITADEL" match level=3 cautious --variant stratego --games 30 --movetime 5 \
    --seed 5 --records "$work/fit.txt" --quiet 2>&1)
expect "a 30-game Stratego match to learn from exits 0" 0 "$?"
timeout 300 "$CITADEL" belief-fit --every 1 "$work/fit.txt" > "$work/net.c" 2> "$work/fit.log"
expect "citadel belief-fit fits the records" 0 "$?"
line=$(grep '^held out: ' "$work/fit.log")
re="net's mean P\(true rank\) (0\.[0-9]+), the counts' (0\.[0-9]+)$"
if [[ $line =~ $re ]]; then
    expect "S6 the learned belief reads moved pieces better than the counts" 1 \
        "$(awk -v n="${BASH_REMATCH[1]}" -v c="${BASH_REMATCH[2]}" 'BEGIN { print (n > c + 0.02) }')"
else
    fail "S6 the learned belief reads moved pieces better than the counts" "$(cat "$work/fit.log")"
fi
expect "citadel belief-fit writes C that compiles as the weights" 0 \
    "$(${CC:-cc} -fsyntax-only -Wall -Wextra -Werror -I"$(dirname "$0")/../../src/games/stratego" \
        -x c "$work/net.c" 2>&1; echo $?)"
expect "citadel belief-fit gives the same weights for the same records" \
    "$(cksum < "$work/net.c")" \
    "$(timeout 300 "$CITADEL" belief-fit --every 1 "$work/fit.txt" 2> /dev/null | cksum)"
expect "citadel belief-fit refuses a bad option" 2 \
    "$("$CITADEL" belief-fit --epochs 0 "$work/fit.txt" > /dev/null 2>&1; echo $?)"
expect "citadel belief-fit refuses a missing file" 1 \
    "$("$CITADEL" belief-fit "$work/none.txt" > /dev/null 2>&1; echo $?)"
