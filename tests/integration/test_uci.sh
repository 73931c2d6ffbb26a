# test_uci.sh -- the UCI dialect of `citadel uci`, through a pipe.
source "$(dirname "$0")/lib.sh"

CLASSIC="1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1"
XL="2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1"

out=$(uci uci isready)
expect_line "uci ends with uciok" "uciok" "$out"
expect_line "isready answers readyok" "readyok" "$out"
expect_line "uci lists the variants" \
    "option name UCI_Variant type combo default rampart var rampart var rampart-xl var rampart-six var rampart-narrow var rampart-mini var rampart-shuffle var stratego var keeps-moats" "$out"
expect_line "uci lists MoveLimit" "option name MoveLimit type spin default 0 min 0 max 100000" "$out"

out=$(uci "position startpos" d)
expect_line "R2 d shows the Classic start" "Fen: $CLASSIC" "$out"
expect_line "d shows an ongoing result" "Result: ongoing" "$out"

out=$(uci "setoption name UCI_Variant value rampart-xl" d)
expect_line "R2 UCI_Variant rampart-xl starts XL" "Fen: $XL" "$out"

# go perft: one line per move, a blank line, the total.
out=$(uci "position startpos" "go perft 2")
lines=$(printf '%s\n' "$out" | grep -cE '^[a-e][1-9][a-e][1-9]: [0-9]+$')
expect "go perft 2 lists the 19 first moves" 19 "$lines"
expect_line "go perft 2 total" "Nodes searched: 358" "$out"
sum=$(printf '%s\n' "$out" | grep -E '^[a-e][1-9][a-e][1-9]: ' | awk '{s += $2} END {print s}')
expect "go perft 2 lines add up" 358 "$sum"
if printf '%s\n' "$out" | grep -B1 '^Nodes searched' | head -n1 | grep -qx ''; then
    pass "go perft prints a blank line before the total"
else
    fail "go perft prints a blank line before the total" "$out"
fi
expect_line "go perft 3 total" "Nodes searched: 8248" "$(uci 'position startpos' 'go perft 3')"
expect_line "go perft 3 on XL" "Nodes searched: 19308" \
    "$(uci 'setoption name UCI_Variant value rampart-xl' 'position startpos' 'go perft 3')"

# Positions and moves.
out=$(uci "position startpos moves c4c5 b6a6" d)
expect_line "position startpos moves" "Fen: 1qqq1/1nnn1/1kkk1/b1bb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 b 2" "$out"
out=$(uci "position fen 4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 b 1 moves c8xc6" d)
expect_line "R5 capture that encloses, via UCI" "Fen: 4q/5/5/2Q2/1B1B1/2B2/5/5/K4 t 1" "$out"
expect_line "R7 insufficient via UCI" "Result: bottom insufficient" "$out"
expect_line "R7 no-captures via UCI" "Result: bottom no-captures" \
    "$(uci 'position fen qq3/5/5/5/5/5/5/5/QQQ2 b 1' d)"
expect_line "R7 no-moves via UCI" "Result: top no-moves" \
    "$(uci 'position fen q3k/5/5/5/5/5/5/bb3/Kb3 b 1' d)"
out=$(uci "setoption name MoveLimit value 1" "position startpos moves c4c5 b6a6" d)
expect_line "R7 move limit via UCI" "Result: draw move-limit" "$out"
out=$(uci "setoption name MoveLimit value 1" "position startpos moves c4c5 b6a6 b4a4" d)
expect_line "moves after the end are refused" \
    "info string error: illegal move b4a4: the game is over (draw move-limit)" "$out"

# Errors leave the previous position in force.
out=$(uci "position startpos moves c4c5" "position fen 1qqq1/1nnn1/1kkk1 b 1" d)
if printf '%s\n' "$out" | grep -q '^info string error: bad position: '; then
    pass "malformed position is refused with a reason"
else
    fail "malformed position is refused with a reason" "$out"
fi
expect_line "malformed position keeps the previous one" \
    "Fen: 1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 t 1" "$out"
out=$(uci "position startpos moves c4c5" "position startpos moves c4c5 c6c5" d)
expect_line "illegal move is refused" "info string error: illegal move c6c5" "$out"
expect_line "illegal move keeps the previous position" \
    "Fen: 1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 t 1" "$out"
out=$(uci "position fen $XL" d)
expect_line "R9 an XL board is refused under rampart" \
    "info string error: bad position: the board is 7x9 but this variant is played on 5x9" "$out"
expect_line "unknown variant is refused" "info string error: unknown variant 'chess'" \
    "$(uci 'setoption name UCI_Variant value chess')"
expect_line "bad MoveLimit is refused" "info string error: MoveLimit must be 0-100000" \
    "$(uci 'setoption name MoveLimit value -3')"
expect_line "unknown command is reported" "info string error: unknown command 'fly'" \
    "$(uci fly)"
expect_line "session goes on after errors" "readyok" "$(uci fly 'position fen x' isready)"

# Garbage of every kind: no crash, no hang, quit still answers.
garbage=$(head -c 200000 /dev/urandom | tr -d '\000')
out=$( (printf '%s\n' "$garbage"; printf 'isready\nquit\n') | timeout 60 "$CITADEL" uci 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qx readyok; then
    pass "random bytes do not crash the UCI loop"
else
    fail "random bytes do not crash the UCI loop" "rc=$rc"
fi
long="position startpos moves$(for _ in $(seq 1 20000); do printf ' c4c5'; done)"
out=$(printf '%s\nisready\nquit\n' "$long" | timeout 60 "$CITADEL" uci 2>&1)
expect_line "a very long move list is refused cleanly" \
    "info string error: illegal move c4c5: no Top piece on c4" "$out"

# Options as match runners and python-chess send them (docs/uci.md
# "Options"): names with spaces, buttons, checks, unknown names.
out=$(uci uci)
for line in "option name Threads type spin default 1 min 1 max 512" \
            "option name Move Overhead type spin default 0 min 0 max 5000" \
            "option name Clear Hash type button" \
            "option name Ponder type check default false" \
            "option name Skill Level type spin default 20 min 0 max 20" \
            "option name UCI_LimitStrength type check default false" \
            "option name UCI_Elo type spin default 1500 min 1500 max 2970" \
            "option name UCI_AnalyseMode type check default false"; do
    expect_line "uci announces ${line#option name }" "$line" "$out"
done
out=$(uci "setoption name Clear Hash" "setoption name Move Overhead value 30" \
          "setoption name Threads value 2" "setoption name Ponder value true" \
          "setoption name UCI_AnalyseMode value false" "setoption name UCI_LimitStrength value true" \
          "setoption name UCI_Elo value 2200" "setoption name skill level value 7" \
          "setoption name Hash value 8" isready)
expect "the usual options are taken silently" "readyok" "$out"
expect "an unknown option answers as Fairy-Stockfish does" "No such option: Foo Bar" \
    "$(uci 'setoption name Foo Bar value 3')"
expect "a bad Move Overhead is refused" "info string error: Move Overhead must be 0-5000 (ms)" \
    "$(uci 'setoption name Move Overhead value -1')"
expect "a check takes true or false" "info string error: option Ponder is true or false, not 'yes'" \
    "$(uci 'setoption name Ponder value yes')"

# Skill Level and UCI_Elo choose the level (level 1 searches one ply).
deepest() { printf '%s\n' "$1" | sed -n 's/^info depth \([0-9]*\) .*/\1/p' | tail -n 1; }
expect "Skill Level 0 plays level 1" 1 \
    "$(deepest "$(uci_search 'setoption name Skill Level value 0' 'position startpos' 'go depth 4')")"
expect "UCI_LimitStrength with UCI_Elo 1500 plays level 1" 1 \
    "$(deepest "$(uci_search 'setoption name UCI_LimitStrength value true' \
        'setoption name UCI_Elo value 1500' 'position startpos' 'go depth 4')")"
expect "UCI_Elo 2970 plays level 6" 4 \
    "$(deepest "$(uci_search 'setoption name UCI_LimitStrength value true' \
        'setoption name UCI_Elo value 2970' 'position startpos' 'go depth 4')")"
expect "UCI_LimitStrength false keeps Level" 4 \
    "$(deepest "$(uci_search 'setoption name UCI_Elo value 1500' 'position startpos' 'go depth 4')")"

# Move Overhead comes off the time budget.
start=$(date +%s%N)
uci_search "setoption name Move Overhead value 5000" "position startpos" "go movetime 3000" >/dev/null
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$ms" -lt 2000 ]; then pass "Move Overhead comes off movetime"; else fail "Move Overhead comes off movetime" "${ms} ms"; fi

# A finished game: its score at depth 0, then bestmove (none), as
# Fairy-Stockfish answers (mate 0 for a won or lost game, cp 0 a draw).
out=$(uci_search "position fen 4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 b 1 moves c8xc6" "go depth 3")
expect "a lost game: mate 0, no move" "info depth 0 score mate 0
bestmove (none)" "$out"
out=$(uci_search "position fen qq3/5/5/5/5/5/5/5/QQQ2 b 1" "go depth 3")
expect "a won game: mate 0, no move" "info depth 0 score mate 0
bestmove (none)" "$out"
out=$(uci_search "setoption name MoveLimit value 1" "position startpos moves c4c5 b6a6" "go movetime 50")
expect "a drawn game: cp 0, no move" "info depth 0 score cp 0
bestmove (none)" "$out"

# Ponder: bestmove names the reply; go ponder waits for ponderhit or stop.
out=$(uci_search "setoption name Ponder value true" "position startpos" "go depth 4")
if printf '%s\n' "$out" | grep -qE '^bestmove [a-e][1-9][a-e][1-9] ponder [a-e][1-9][a-e][1-9]$'; then
    pass "Ponder on: bestmove <move> ponder <move>"
else
    fail "Ponder on: bestmove <move> ponder <move>" "$out"
fi
out=$( (printf 'position startpos\ngo ponder movetime 50\n'; sleep 0.5; printf 'isready\n'; sleep 0.2
        printf 'ponderhit\n'; sleep 1; printf 'quit\n') | timeout 60 "$CITADEL" uci)
if [ "$(printf '%s\n' "$out" | grep -c '^bestmove ')" = 1 ] &&
   [ "$(printf '%s\n' "$out" | grep -E '^(readyok|bestmove)' | head -n 1)" = readyok ]; then
    pass "go ponder answers only after ponderhit, once"
else
    fail "go ponder answers only after ponderhit, once" "$out"
fi
out=$( (printf 'position startpos\ngo ponder movetime 50\n'; sleep 0.5; printf 'stop\n'; sleep 0.3
        printf 'quit\n') | timeout 60 "$CITADEL" uci)
expect "stop ends go ponder with its bestmove" 1 "$(printf '%s\n' "$out" | grep -c '^bestmove ')"

# Fairy-Stockfish's position strings (docs/uci.md "Position strings"): w
# the first mover; its six fields "w|b - - halfmoves fullmoves", b the
# second mover there. Citadel's own b and t keep R9's meaning.
expect_line "R9 w reads as Bottom" "Fen: $CLASSIC" "$(uci "position fen ${CLASSIC% b 1} w 1" d)"
expect_line "Fairy-Stockfish's w - - 0 1 reads as Bottom" "Fen: $CLASSIC" \
    "$(uci "position fen ${CLASSIC% b 1} w - - 0 1" d)"
expect_line "Fairy-Stockfish's b reads as Top" \
    "Fen: 1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 t 1" \
    "$(uci "position fen 1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 b - - 0 1" d)"
expect_line "R9 b still reads as Bottom" "Fen: $CLASSIC" "$(uci "position fen $CLASSIC" d)"
expect_line "Fairy-Stockfish's form takes moves" \
    "Fen: 1qqq1/1nnn1/1kkk1/b1bb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 b 2" \
    "$(uci "position fen 1qqq1/1nnn1/1kkk1/1bbb1/2B2/1B1B1/1KKK1/1NNN1/1QQQ1 b - - 0 1 moves b6a6" d)"
