#!/usr/bin/env bash
# test_lichess_types.sh -- the check against lichess's published types
# (tests/schema/lichess_types.mjs) can pass and can fail: stream lines and
# answers in lichess's shapes, with our variant's key and fields of our own
# beside lichess's, pass in one run; each defect that lichess's types forbid
# is refused in a run of its own, the failure naming the input line and the
# field. Needs node and the npm packages (tools/setup test), not $CITADEL.
# Eleven runs of the check, each under a second: about 9 s in all on the
# project's 2-core machine.
source "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
check() { node tests/schema/lichess_types.mjs "$@" 2>&1; }
version=$(node -p 'require("./node_modules/@lichess-org/types/package.json").version' 2>/dev/null)
if [ -z "$version" ]; then
    fail "@lichess-org/types is installed" "no node_modules/@lichess-org/types: npm ci (tools/setup test)"
    exit 0
fi

# --- lines and answers lichess's types accept -----------------------------------
game_full='{"type":"gameFull","id":"Rq4tWm2z","variant":{"key":"rampart","name":"Rampart","short":"Ramp"},"clock":{"initial":180000,"increment":2000},"speed":"blitz","perf":{"name":"Blitz"},"rated":false,"createdAt":1733611200000,"white":{"id":"ironmoss","name":"IronMoss","title":"BOT","rating":1500,"provisional":true},"black":{"id":"fennick","name":"Fennick","title":null,"rating":1712},"initialFen":"startpos","state":{"type":"gameState","moves":"c2c3 g8g7","wtime":176500,"btime":179200,"winc":2000,"binc":2000,"status":"started"},"players":["ironmoss","fennick"],"move_limit":100}'
game_state='{"type":"gameState","moves":"c2c3 g8g7 c3c4","wtime":174100,"btime":179200,"winc":2000,"binc":2000,"status":"started","bdraw":true,"players":["ironmoss","fennick"],"move_limit":100}'
game_start='{"type":"gameStart","game":{"gameId":"Rq4tWm2z","fullId":"Rq4tWm2zK9aa","color":"white","fen":"1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 w 1","hasMoved":false,"isMyTurn":true,"lastMove":"","opponent":{"id":"fennick","username":"Fennick","rating":1712},"perf":"blitz","rated":false,"secondsLeft":180,"source":"friend","speed":"blitz","variant":{"key":"rampart","name":"Rampart"},"compat":{"bot":true,"board":false},"id":"Rq4tWm2z","players":["ironmoss","fennick"],"move_limit":100}}'
challenge='{"type":"challenge","challenge":{"id":"Vx81pQ3n","url":"http://127.0.0.1:8080/Vx81pQ3n","status":"created","challenger":{"id":"fennick","name":"Fennick","rating":1712,"online":true,"lag":3},"destUser":{"id":"ironmoss","name":"IronMoss","title":"BOT","rating":1500,"provisional":true,"online":true},"variant":{"key":"rampart","name":"Rampart"},"rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2,"show":"3+2"},"color":"random","finalColor":"black","perf":{"icon":"","name":"Blitz"},"direction":"in","players":["fennick","ironmoss"],"move_limit":100},"compat":{"bot":true,"board":true}}'
move_ok='{"kind":"http","method":"POST","path":"/api/bot/game/7/move/a1b2?offeringDraw=false","status":200,"content_type":"application/json","answer_is_json":true,"answer":{"ok":true}}'
account='{"kind":"http","method":"GET","path":"/api/account","status":200,"content_type":"application/json","answer_is_json":true,"answer":{"id":"mybot","username":"MyBot","title":"BOT","url":"http://x/@/MyBot"}}'
signup='{"kind":"http","method":"POST","path":"/api/signup","status":200,"content_type":"application/json","answer_is_json":true,"request":{"name":"mybot"},"answer":{"ok":true}}'
move_refused='{"kind":"http","method":"POST","path":"/api/bot/game/7/move/a1b2","status":400,"content_type":"application/json","answer_is_json":true,"answer":{"error":"nope"}}'
stream='{"kind":"http","method":"GET","path":"/api/stream/event","status":200,"content_type":"application/x-ndjson","answer_is_json":false}'
socket='{"kind":"ws-recv","msg":{"type":"hello"}}'

printf '%s\n' "$game_full" "" "$game_state" "$game_start" "$challenge" >"$work/good.ndjson"
printf '%s\n' "$move_ok" "$account" "$signup" "$move_refused" "$stream" "$socket" >"$work/good.wire"
out=$(check --ndjson "$work/good.ndjson" --wire "$work/good.wire")
expect "lichess's shapes with our variant and fields of our own pass" \
    "0 lichess_types: 4 stream lines and 3 answers match @lichess-org/types $version (1 answer on Citadel's own routes not checked)" \
    "$? $out"

# --- defects, each refused alone ------------------------------------------------
# refused NAME KIND GOOD BAD AGAINST PATTERN: a file of the line GOOD and
# then BAD (GOOD changed) fails the check (exit 1), the failure naming line 2
# and what it was checked against, and its text matching PATTERN (an extended
# regular expression); line 1 is not blamed.
refused() {
    local name=$1 kind=$2 good=$3 bad=$4 against=$5 want=$6 file out rc
    if [ "$good" = "$bad" ]; then
        fail "refused: $name" "the change did nothing"
        return
    fi
    file=$work/case.$kind
    printf '%s\n' "$good" "$bad" >"$file"
    out=$(check "--$kind" "$file")
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qxF "$file:2: against $against:" &&
        printf '%s\n' "$out" | grep -qE -- "$want" && ! printf '%s\n' "$out" | grep -qF "$file:1:"; then
        pass "refused: $name"
    else
        fail "refused: $name" "exit $rc, want line 2 against $against and /$want/:
$out"
    fi
}
refused "a numeric id in gameFull" ndjson "$game_full" "${game_full/\"id\":\"Rq4tWm2z\"/\"id\":4417}" \
    GameFullEvent "property 'id' are incompatible"
refused "a gameState with status \"time\" (lichess: outoftime)" ndjson "$game_state" \
    "${game_state/\"status\":\"started\"/\"status\":\"time\"}" GameStateEvent \
    "property 'status' are incompatible"
refused "a gameFull without white" ndjson "$game_full" \
    "$(sed -E 's/"white":\{[^}]*\},//' <<<"$game_full")" GameFullEvent "Property 'white' is missing"
refused "a gameStart whose game has no gameId" ndjson "$game_start" "${game_start/\"gameId\":\"Rq4tWm2z\",/}" \
    GameStartEvent "Property 'gameId' is missing"
refused "a challenge without timeControl" ndjson "$challenge" \
    "$(sed -E 's/"timeControl":\{[^}]*\},//' <<<"$challenge")" ChallengeEvent "Property 'timeControl' is missing"
refused "a line of a type lichess does not send" ndjson "$game_state" '{"type":"hello","players":["ironmoss"]}' \
    "the event types" 'type "hello": not a line lichess'"'"'s streams send'
refused "a variant whose key is a number (only the key's word list is freed)" ndjson "$game_full" \
    "${game_full/\"key\":\"rampart\",\"name\":\"Rampart\",\"short\":\"Ramp\"/\"key\":5,\"name\":\"x\"}" \
    GameFullEvent "'variant.key' are incompatible"
refused "a move answered without ok" wire "$move_ok" "${move_ok/\"ok\":true/\"done\":true}" \
    "POST /api/bot/game/{gameId}/move/{move} 200 Ok" "Property 'ok' is missing"
refused "an account whose title is no lichess title" wire "$account" "${account/\"BOT\"/\"Robot\"}" \
    "GET /api/account 200 UserExtended" "property 'title' are incompatible"

# --- a check that checks nothing does not pass ---------------------------------
printf '%s\n' "$signup" "$stream" "$socket" >"$work/none.wire"
out=$(check --wire "$work/none.wire")
rc=$?
if [ $rc -eq 1 ] && [[ $out == *"nothing to check (1 answer on Citadel's own routes)"* ]]; then
    pass "a file with nothing on lichess's routes fails"
else
    fail "a file with nothing on lichess's routes fails" "exit $rc: $out"
fi
