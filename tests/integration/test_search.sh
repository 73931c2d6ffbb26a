# test_search.sh -- `go` in the UCI dialect: limits, info lines, stop, bench.
source "$(dirname "$0")/lib.sh"

out=$(uci_search "position startpos" "go depth 4")
if printf '%s\n' "$out" | grep -qE '^info depth 4 seldepth [0-9]+ score cp -?[0-9]+ nodes [0-9]+ nps [0-9]+ time [0-9]+ pv( [a-e][1-9][a-e][1-9]){1,}$'; then
    pass "go depth 4 reports depth 4 with score, nodes, nps, time, pv"
else
    fail "go depth 4 reports depth 4 with score, nodes, nps, time, pv" "$out"
fi
bm=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
legal=$(uci "position startpos" "go perft 1" | sed -n 's/^\([a-e][1-9][a-e][1-9]\): .*/\1/p')
if [ -n "$bm" ] && printf '%s\n' "$legal" | grep -qx "$bm"; then pass "bestmove is a legal move"; else fail "bestmove is a legal move" "$out"; fi

# A won capture is found and scored as a win (R7.2 ends the game at once).
out=$(uci_search "position fen q4/5/5/5/2n2/5/2Q2/5/K4 b 1" "go depth 3")
expect_line "search finds the game-ending capture" "bestmove c3c5" "$out"
if printf '%s\n' "$out" | grep -qE '^info depth [0-9]+ .*score win 1 '; then pass "game end scored as win 1"; else fail "game end scored as win 1" "$out"; fi

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
