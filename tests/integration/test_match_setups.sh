# test_match_setups.sh -- each side chooses its own Stratego setup (S3) in
# `citadel match`, through every way of driving a bot: the game's own bots
# (their varied setup), an outside engine asked `go setup` in our UCI
# dialect, and `citadel uci` itself answering it. An engine that answers no
# setup, or a bad one, loses as for an illegal move. `--setups library`
# keeps the start drawn from the library pairs.
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
citadel=$(cd "$(dirname "$CITADEL")" && pwd)/$(basename "$CITADEL")

# The library's corner-fortress, the setup the fake engine always plays.
fixed="OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBB"

# fake_engine FILE ANSWER: an engine that answers `go setup` with ANSWER
# ("" for no answer at all) and leaves everything else, moves included, to
# `citadel uci` at level 1.
fake_engine() {
    cat >"$1" <<EOF
#!/bin/bash
exec 3>&1
{
    echo "setoption name Level value 1"
    while IFS= read -r line; do
        case \$line in
        "go setup") [ -n "$2" ] && echo "$2" >&3 ;;
        *) printf '%s\n' "\$line" ;;
        esac
    done
} | "$citadel" uci
EOF
    chmod +x "$1"
}

# engine_setups FILE NAME: the setups the player NAME played in FILE's
# games, one a line (its colour's setup tag).
engine_setups() {
    awk -v who="\"$2\"]" '
        /^\[Red / { red = substr($0, 6) } /^\[Blue / { blue = substr($0, 7) }
        /^\[RedSetup / { rs = $2 } /^\[BlueSetup / { bs = $2 }
        /^\[Limits / {
            if (red == who) print rs; else if (blue == who) print bs
            red = blue = rs = bs = ""
        }' "$1" | tr -d '"]'
}

# An outside engine's own setup, by `go setup`, in every game it plays.
fake_engine "$work/fixed.sh" "bestsetup $fixed"
spec="uci:$work/fixed.sh"
out=$(timeout 120 "$CITADEL" match "$spec" level=1 --variant stratego --games 2 --movetime 10 \
    --move-limit 30 --records "$work/fixed.pgn" --quiet 2>&1)
expect "a match against an engine that sets up exits 0" 0 "$?"
expect "the records hold 2 games" 2 "$(grep -c '^\[Event ' "$work/fixed.pgn")"
expect "the engine's setup is in the record of its colour, Red and Blue" "$fixed
$fixed" "$(engine_setups "$work/fixed.pgn" "$spec")"
expect "the engine played Red once and Blue once" "1 1" \
    "$(grep -c "^\[Red \"$spec\"\]" "$work/fixed.pgn") $(grep -c "^\[Blue \"$spec\"\]" "$work/fixed.pgn")"
others=$(engine_setups "$work/fixed.pgn" level=1)
if [ "$(printf '%s\n' "$others" | grep -c '^[A-Z/]\{43\}$')" = 2 ] &&
    ! printf '%s\n' "$others" | grep -qxF "$fixed"; then
    pass "the level bot plays a setup of its own (its varied one)"
else
    fail "the level bot plays a setup of its own (its varied one)" "$others"
fi
expect "a game's own bot plays one setup in both games of a pair" 1 \
    "$(printf '%s\n' "$others" | sort -u | wc -l)"
out=$("$CITADEL" pgn check "$work/fixed.pgn" 2>&1)
expect "citadel pgn check replays the games from the setups played" \
    "0 2 games: 2 ok, 0 with errors" "$? $(printf '%s\n' "$out" | tail -n 1)"
expect "no game lost for its setup" 0 "$(grep -c '^\[SetupError ' "$work/fixed.pgn")"

# `citadel uci` answers `go setup` with a setup the engine's check takes,
# and its k-th answer of a session is the same each time it starts.
first=$(uci "setoption name UCI_Variant value stratego" "go setup" | sed -n 's/^bestsetup //p')
if [[ $first =~ ^[A-Z]{10}/[A-Z]{10}/[A-Z]{10}/[A-Z]{10}$ ]]; then
    pass "citadel uci answers go setup with bestsetup <setup>"
else
    fail "citadel uci answers go setup with bestsetup <setup>" "$first"
fi
expect "go setup seed N answers the same setup every time" \
    "$(uci "setoption name UCI_Variant value stratego" "go setup seed 9" | grep '^bestsetup')" \
    "$(uci "setoption name UCI_Variant value stratego" "go setup seed 9" | grep '^bestsetup')"
expect "go setup on a game without setups is an error" \
    "info string error: go setup: rampart has no setups" \
    "$(uci "setoption name UCI_Variant value rampart" "go setup" | grep 'error')"
spec="uci:$citadel uci"
out=$(timeout 120 "$CITADEL" match "$spec" level=1 --variant stratego --games 2 --movetime 10 \
    --move-limit 30 --records "$work/self.pgn" --quiet 2>&1)
expect "a match against citadel uci exits 0" 0 "$?"
expect "citadel uci's first setup is the one it played first" "$first" \
    "$(engine_setups "$work/self.pgn" "$spec" | head -n 1)"
expect "citadel uci's setups are taken (check accepts them)" 0 \
    "$(grep -c '^\[SetupError ' "$work/self.pgn")"
out=$("$CITADEL" pgn check "$work/self.pgn" 2>&1)
expect "citadel pgn check replays citadel uci's games" "0 2 games: 2 ok, 0 with errors" \
    "$? $(printf '%s\n' "$out" | tail -n 1)"

# A bad setup, and none in time: the engine loses, reason "illegal", as for
# an illegal move; the record says why.
fake_engine "$work/bad.sh" "bestsetup OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBM"
spec="uci:$work/bad.sh"
out=$(timeout 120 "$CITADEL" match "$spec" level=1 --variant stratego --games 2 --movetime 10 \
    --move-limit 30 --records "$work/bad.pgn" --quiet 2>&1)
expect "an engine with a bad setup loses both games" "Score of $spec vs level=1: 0 - 2 - 0  [0.000] 2" \
    "$(printf '%s\n' "$out" | head -n 1)"
expect "reason illegal, a rules infraction" "2 2" \
    "$(grep -c '^\[Reason "illegal"\]' "$work/bad.pgn") $(grep -c '^\[Termination "rules infraction"\]' "$work/bad.pgn")"
expect "the record says which side's setup was bad and why" 2 \
    "$(grep -cE '^\[SetupError "(red|blue): bad setup .OAOLMOGOAO/EJLOCSCJLE/BNAEOLJANB/FBNEONBNBM.: ' "$work/bad.pgn")"
out=$("$CITADEL" pgn check "$work/bad.pgn" 2>&1)
expect "citadel pgn check reads the records of games lost by a setup" \
    "0 2 games: 2 ok, 0 with errors" "$? $(printf '%s\n' "$out" | tail -n 1)"
fake_engine "$work/mute.sh" ""
spec="uci:$work/mute.sh"
out=$(CITADEL_UCI_TIMEOUT_MS=300 timeout 120 "$CITADEL" match "$spec" level=1 --variant stratego \
    --games 2 --movetime 10 --move-limit 30 --records "$work/mute.pgn" --quiet 2>&1)
expect "an engine that answers no setup loses both games" "Score of $spec vs level=1: 0 - 2 - 0  [0.000] 2" \
    "$(printf '%s\n' "$out" | head -n 1)"
expect "... within the handshake timeout, reason illegal" 2 \
    "$(grep -c '^\[SetupError "\(red\|blue\): no bestsetup within 300 ms"\]' "$work/mute.pgn")"
expect "... by rule" 2 "$(grep -c '^\[Reason "illegal"\]' "$work/mute.pgn")"

# --setups library: the start is drawn as before, shared by a pair, and no
# bot is asked for a setup (the engine with the bad one plays its games).
spec="uci:$work/bad.sh"
out=$(timeout 120 "$CITADEL" match "$spec" level=1 --variant stratego --games 2 --movetime 5 \
    --move-limit 20 --setups library --records "$work/lib.pgn" --quiet 2>&1)
expect "--setups library exits 0" 0 "$?"
expect "a pair shares its start" "2 1" \
    "$(grep -c '^\[FEN ' "$work/lib.pgn") $(grep '^\[FEN ' "$work/lib.pgn" | sort -u | wc -l)"
expect "no bot is asked for its setup" "0 0" \
    "$(grep -c '^\[SetupError ' "$work/lib.pgn") $(grep -c '^\[Reason "illegal"\]' "$work/lib.pgn")"

check_exit() {  # check_exit NAME WANT_RC ARGS...
    local name=$1 want=$2
    shift 2
    "$CITADEL" "$@" >/dev/null 2>&1
    expect "$name" "$want" "$?"
}
check_exit "--setups with a bad value exits 2" 2 match random random --variant stratego --setups mine
check_exit "--setups on a game without setups exits 2" 2 match random random --setups library
check_exit "--setups own with --openings exits 2" 2 match random random --variant stratego \
    --setups own --openings "$work/lib.pgn"
