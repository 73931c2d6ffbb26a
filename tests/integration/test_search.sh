# test_search.sh -- `go` in the UCI dialect: limits, info lines (their
# forms as tools of the field read them: `score mate N`, `hashfull`,
# `multipv K`), the variant announced after UCI_Variant, stop, bench.
source "$(dirname "$0")/lib.sh"

out=$(uci_search "position startpos" "go depth 4")
if printf '%s\n' "$out" | grep -qE '^info depth 4 seldepth [0-9]+ score cp -?[0-9]+ nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv( [a-e][1-9][a-e][1-9]){1,}$'; then
    pass "go depth 4 reports depth 4 with score, nodes, nps, hashfull, time, pv"
else
    fail "go depth 4 reports depth 4 with score, nodes, nps, hashfull, time, pv" "$out"
fi
bm=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
legal=$(uci "position startpos" "go perft 1" | sed -n 's/^\([a-e][1-9][a-e][1-9]\): .*/\1/p')
if [ -n "$bm" ] && printf '%s\n' "$legal" | grep -qx "$bm"; then pass "bestmove is a legal move"; else fail "bestmove is a legal move" "$out"; fi

# A won capture is found and scored as a win (R7.2 ends the game at once).
out=$(uci_search "position fen q4/5/5/5/2n2/5/2Q2/5/K4 b 1" "go depth 3")
expect_line "search finds the game-ending capture" "bestmove c3c5" "$out"
if printf '%s\n' "$out" | grep -qE '^info depth [0-9]+ .*score mate 1 '; then pass "game end scored as mate 1"; else fail "game end scored as mate 1" "$out"; fi

# After UCI_Variant, the variant announced as Fairy-Stockfish does.
expect_line "the variant announced" \
    "info string variant rampart-xl files 7 ranks 9 startpos 2qqq2/2nnn2/2kkk2/2bbb2/7/2BBB2/2KKK2/2NNN2/2QQQ2 b 1" \
    "$(uci 'setoption name UCI_Variant value rampart-xl')"
if uci 'setoption name UCI_Variant value keeps-moats' | grep -qE '^info string variant keeps-moats files 17 ranks 17 startpos bC/'; then
    pass "Keeps & Moats announced with its 17x17 board"
else
    fail "Keeps & Moats announced with its 17x17 board" "$(uci 'setoption name UCI_Variant value keeps-moats')"
fi
# ... and with its own settings at its own defaults: a MoveLimit set for
# another variant does not carry over (Keeps & Moats's is 200, Rampart's 0).
# The defaults are announced by `uci`, for the variant in force, inside
# uci ... uciok (python-chess reads no option line outside it).
out=$(uci 'setoption name UCI_Variant value keeps-moats' 'setoption name MoveLimit value 50' \
          'setoption name UCI_Variant value rampart' 'setoption name UCI_Variant value keeps-moats' d)
if printf '%s\n' "$out" | grep -qE '^Fen: .* 1 200$' && ! printf '%s\n' "$out" | grep -q '^option '; then
    pass "each variant's settings start again at its own defaults, announced by uci only"
else
    fail "each variant's settings start again at its own defaults, announced by uci only" "$out"
fi
expect_line "Rampart's own MoveLimit default announced" \
    "option name MoveLimit type spin default 0 min 0 max 100000" "$(uci uci)"
out=$(uci 'setoption name UCI_Variant value keeps-moats' uci)
expect_line "Keeps & Moats's own MoveLimit default announced by uci" \
    "option name MoveLimit type spin default 200 min 0 max 100000" "$out"
expect_line "Keeps & Moats's own GameType default announced" \
    "option name GameType type spin default 2 min 0 max 2" "$out"
expect "the variant's defaults come before uciok" "uciok" "$(printf '%s\n' "$out" | tail -n 1)"
# Choosing the variant in force again keeps its settings (a match runner
# sends UCI_Variant before every game).
out=$(uci 'setoption name MoveLimit value 1' 'setoption name UCI_Variant value rampart' \
          'position startpos moves c4c5 b6a6' d)
expect_line "UCI_Variant again keeps MoveLimit" "Result: draw move-limit" "$out"
out=$(uci 'setoption name UCI_Variant value keeps-moats' 'setoption name MoveLimit value 30' \
          'setoption name UCI_Variant value keeps-moats' d)
if printf '%s\n' "$out" | grep -qE '^Fen: .* 1 30$'; then
    pass "UCI_Variant again keeps Keeps & Moats's MoveLimit"
else
    fail "UCI_Variant again keeps Keeps & Moats's MoveLimit" "$out"
fi

# MultiPV 3: three lines at every depth, numbered, with three different
# first moves at the last; bestmove is line 1's.
out=$(uci_search "setoption name MultiPV value 3" "position startpos" "go depth 5")
last=$(printf '%s\n' "$out" | grep -E '^info depth 5 seldepth [0-9]+ multipv [1-3] score cp -?[0-9]+ ')
firsts=$(printf '%s\n' "$last" | sed -n 's/.* pv \([a-e][1-9][a-e][1-9]\).*/\1/p' | sort -u | wc -l)
line1=$(printf '%s\n' "$last" | sed -n 's/.* multipv 1 .* pv \([a-e][1-9][a-e][1-9]\).*/\1/p')
if [ "$(printf '%s\n' "$last" | wc -l)" -eq 3 ] && [ "$firsts" -eq 3 ] && printf '%s\n' "$out" | grep -qx "bestmove $line1"; then
    pass "MultiPV 3 gives three lines and line 1's bestmove"
else
    fail "MultiPV 3 gives three lines and line 1's bestmove" "$out"
fi
# Keeps & Moats is played by its own style bots, as the server plays it: a
# legal move, and none of the two-sided search's info lines.
out=$(uci_search "setoption name UCI_Variant value keeps-moats" "position startpos" "go nodes 3000")
bm=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
legal=$(uci "setoption name UCI_Variant value keeps-moats" "position startpos" "go perft 1" | sed -n 's/^\([a-q][0-9]*[a-q][0-9]*\): .*/\1/p')
if [ -n "$bm" ] && printf '%s\n' "$legal" | grep -qx "$bm" && ! printf '%s\n' "$out" | grep -q '^info depth'; then
    pass "Keeps & Moats go plays its style bot"
else
    fail "Keeps & Moats go plays its style bot" "$out"
fi
expect_line "an unknown style refused" "info string error: keeps-moats has no style 'nonsense'" \
    "$(uci 'setoption name UCI_Variant value keeps-moats' 'setoption name Style value nonsense')"
expect_line "bad MultiPV refused" "info string error: MultiPV must be 1-5" "$(uci 'setoption name MultiPV value 9')"

# go searchmoves: only the moves named are searched. Unrestricted, the
# search takes the game-ending c3c5 (above); held to a1a2 and c3d3, with
# MultiPV 3, its bestmove and every line's first move are of those two,
# and there are only two lines at the last depth.
MATE1="q4/5/5/5/2n2/5/2Q2/5/K4 b 1"
out=$(uci_search "setoption name MultiPV value 3" "position fen $MATE1" "go depth 4 searchmoves a1a2 c3d3")
firsts=$(printf '%s\n' "$out" | grep -E '^info depth ' | sed -n 's/.* pv \([a-e][1-9][a-e][1-9]\).*/\1/p')
bm=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
if [ -n "$firsts" ] && ! printf '%s\n' "$firsts" | grep -qvxE 'a1a2|c3d3' &&
   printf '%s\n' "$bm" | grep -qxE 'a1a2|c3d3' &&
   [ "$(printf '%s\n' "$out" | grep -cE '^info depth 4 .* multipv [0-9] ')" -eq 2 ]; then
    pass "searchmoves holds bestmove and every line to the moves named"
else
    fail "searchmoves holds bestmove and every line to the moves named" "$out"
fi
# Moves that are not legal are left out with a warning naming them; the
# other limits may come before searchmoves (its moves are the last group).
out=$(uci_search "position fen $MATE1" "go nodes 5000 searchmoves c3c5x a2a3 c3d3")
expect_line "a malformed searchmoves move is named and left out" \
    "info string warning: searchmoves ignores c3c5x: malformed move 'c3c5x' (write it as c4c5)" "$out"
expect_line "an illegal searchmoves move is named and left out" \
    "info string warning: searchmoves ignores a2a3: illegal move a2a3: no Bottom piece on a2" "$out"
expect_line "searchmoves with nodes plays the legal move left" "bestmove c3d3" "$out"
out=$(uci_search "position fen $MATE1" "go movetime 100 searchmoves a1b1")
expect_line "searchmoves with movetime" "bestmove a1b1" "$out"
out=$( (printf 'position fen %s\ngo infinite searchmoves a1b2\n' "$MATE1"; sleep 1; printf 'stop\nquit\n') |
      timeout 20 "$CITADEL" uci)
expect_line "searchmoves with infinite" "bestmove a1b2" "$out"
# None legal: an error and no search (no bestmove).
out=$(uci "position startpos" "go depth 2 searchmoves c6c5 e9e8")
expect_line "searchmoves naming no legal move is refused" \
    "info string error: searchmoves names no legal move: no search" "$out"
if printf '%s\n' "$out" | grep -q '^bestmove'; then fail "no search without a legal searchmoves move" "$out"; else pass "no search without a legal searchmoves move"; fi
out=$(uci "position startpos" "go depth 2 searchmoves")
expect_line "searchmoves naming no move is refused" \
    "info string error: searchmoves names no legal move: no search" "$out"
# Games played by their own players (hidden pieces, more sides) cannot be
# held to a set of moves.
for v in stratego keeps-moats; do
    out=$(uci "setoption name UCI_Variant value $v" "position startpos" "go depth 1 searchmoves a1a2")
    expect_line "searchmoves refused for $v" "info string error: searchmoves is not supported for $v" "$out"
    if printf '%s\n' "$out" | grep -q '^bestmove'; then fail "no $v search after searchmoves" "$out"; else pass "no $v search after searchmoves"; fi
done

# An aspiration search that fails is reported before its search again, as
# Stockfish does: fail high a lowerbound, fail low an upperbound. This
# bench position (the third) fails low at depth 6 and high at depth 7
# (the search is deterministic at a fixed depth); every info line of the
# run, bounds and all, has the one grammar.
ASP="1qq2/n2n1/1qk2/kbb1k/1BBbn/N2B1/1KKK1/Q3N/1QQN1 b 13"
INFO='^info depth [0-9]+ seldepth [0-9]+( multipv [0-9]+)? score (cp -?[0-9]+|mate -?[0-9]+)( lowerbound| upperbound)? nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv( [a-e][1-9][a-e][1-9])+$'
for mpv in 1 2; do
    out=$(uci_search "setoption name MultiPV value $mpv" "position fen $ASP" "go depth 7")
    infos=$(printf '%s\n' "$out" | grep '^info ' | grep -v '^info string ')
    if printf '%s\n' "$infos" | grep -qE '^info depth 6 .* upperbound ' &&
       printf '%s\n' "$infos" | grep -qE '^info depth 7 .* lowerbound ' &&
       ! printf '%s\n' "$infos" | grep -qvE "$INFO" && printf '%s\n' "$out" | grep -q '^bestmove '; then
        pass "aspiration fails reported as lowerbound and upperbound (MultiPV $mpv)"
    else
        fail "aspiration fails reported as lowerbound and upperbound (MultiPV $mpv)" "$out"
    fi
done
# A bound comes before the same depth's final line, never after it.
out=$(uci_search "position fen $ASP" "go depth 7")
order=$(printf '%s\n' "$out" | grep -E '^info depth 7 ' | awk '/ (lowerbound|upperbound) / { printf "B"; next } { printf "E" }')
expect "a depth's bounds precede its line" "BE" "$order"

out=$(uci_search "position fen qq3/5/5/5/5/5/5/5/QQQ2 b 1" "go depth 3")
expect_line "no move in a finished game" "bestmove (none)" "$out"

# Limits: nodes and movetime end the search; stop ends infinite at once.
out=$(uci_search "position startpos" "go nodes 2000")
if printf '%s\n' "$out" | grep -q '^bestmove [a-e][1-9][a-e][1-9]$'; then pass "go nodes answers"; else fail "go nodes answers" "$out"; fi
out=$(uci_search "setoption name UCI_Variant value rampart-xl" "position startpos" "go movetime 200")
if printf '%s\n' "$out" | grep -q '^bestmove [a-g][1-9][a-g][1-9]$'; then pass "go movetime answers"; else fail "go movetime answers" "$out"; fi
out=$( (printf 'position startpos\ngo infinite\n'; sleep 1; printf 'isready\nstop\nquit\n') | timeout 20 "$CITADEL" uci)
expect_line "isready answers during a search" "readyok" "$out"
if printf '%s\n' "$out" | grep -q '^bestmove [a-e][1-9][a-e][1-9]$'; then pass "stop ends go infinite with a bestmove"; else fail "stop ends go infinite with a bestmove" "$out"; fi
out=$(uci_search "position startpos" "go wtime 1000 btime 1000 winc 10 binc 10")
if printf '%s\n' "$out" | grep -q '^bestmove '; then pass "go with clocks answers"; else fail "go with clocks answers" "$out"; fi
for lv in 1 3 6; do
    out=$(uci_search "setoption name Level value $lv" "position startpos" "go depth 3")
    if printf '%s\n' "$out" | grep -q '^bestmove [a-e][1-9][a-e][1-9]$'; then pass "Level $lv plays"; else fail "Level $lv plays" "$out"; fi
done
expect_line "bad Level refused" "info string error: Level must be 1-6" "$(uci 'setoption name Level value 9')"
expect_line "bad go limit refused" "info string error: go: bad number for depth" "$(uci 'go depth x')"

if [ "$TIER" = release ]; then
    out=$("$CITADEL" bench --depth 6)
    if printf '%s\n' "$out" | grep -qE '^Nodes: [0-9]+$' && printf '%s\n' "$out" | grep -qE '^NPS: [0-9]+$'; then
        pass "bench prints nodes and NPS"
    else
        fail "bench prints nodes and NPS" "$out"
    fi
    a=$("$CITADEL" bench --depth 6 | grep '^Nodes:')
    b=$("$CITADEL" bench --depth 6 | grep '^Nodes:')
    expect "bench is deterministic" "$a" "$b"
fi
