# test_bot_api.sh -- the Bot API end to end (docs/bot-api.md): an account
# signs up, makes tokens and has the token rules held against it (no token,
# a revoked token, a token without the scope: 401 and nothing changed),
# becomes a bot account, and examples/bot.py plays one short game of each
# family (Rampart, Keeps & Moats, Stratego) against the server's own bots
# with `citadel uci` as its engine. A second account (a person with a
# board:play token) challenges the bot: declined, withdrawn, then accepted
# and resigned, each told on the event streams; then bot.py, run alone,
# accepts its challenge and plays it out. A board:play account whose game
# waits with nothing open past its client's idle end is answered at once
# when it acts again. Every line read from the
# streams, and every answer, is validated against docs/api.schema.json
# (BotEvent, BotGameLine, x-routes); the per-token stream and request
# limits answer 429.
# Needs curl and python3 (with python3-jsonschema), which tools/setup
# installs.
source "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
pid=0
at_exit 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"'
py=python3
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null && py=/usr/bin/python3

# Two streams a token: the bot needs its event stream and one game's.
"$CITADEL" serve --listen 127.0.0.1:0 --db "$dir/db" --web "$dir" \
    --limit api-streams=2 --api-idle-ms 3000 >"$dir/log" 2>&1 &
pid=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/log")
    [ -n "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    fail "the server starts" "$(cat "$dir/log")"
    exit 0
fi
url=http://127.0.0.1:$port

# api METHOD PATH [BODY [CURL-ARGS...]]: one request to the server, the
# answer's body in $dir/body; prints the status. Each exchange is logged
# as tests/schema/check_wire.py reads it, and checked at the end.
wire=$dir/wire.log
api() {
    local method=$1 path=$2 body=${3:-} out
    shift $(($# < 3 ? $# : 3))
    local args=(-X "$method")
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
    out=$(curl -s -o "$dir/body" -w '%{http_code} %{content_type}' --max-time 30 "${args[@]}" "$@" "$url$path")
    $py - "$method" "$path" "$body" "${out%% *}" "${out#* }" "$dir/body" >>"$wire" <<'PY'
import json, sys
method, path, body, status, ctype, answer = sys.argv[1:]
line = {"kind": "http", "test": "test_bot_api", "method": method, "path": path,
        "status": int(status), "content_type": ctype, "answer_is_json": ctype.startswith("application/json")}
if body:
    line["request"] = json.loads(body)
if line["answer_is_json"]:
    line["answer"] = json.load(open(answer))
print(json.dumps(line))
PY
    printf '%s' "${out%% *}"
}
# js EXPR: EXPR of the last answer's JSON (d), printed (a tuple as words).
js() {
    $py -c 'import json,sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(*v) if isinstance(v, tuple) else print(v)' "$dir/body" "$1" 2>&1
}
bearer() { printf 'Authorization: Bearer %s' "$1"; }

# --- an account and its tokens ---------------------------------------------
name=e2ebot$$
st=$(api POST /api/signup "{\"name\":\"$name\",\"password\":\"correct horse battery\"}" -c "$dir/jar")
if [[ $st == 20? ]]; then pass "sign up"; else fail "sign up" "$st $(cat "$dir/body")"; fi
cookie=(-b "$dir/jar")

mint() {  # SCOPES-JSON DESCRIPTION: makes a token; sets tok and tok_id
    tok= tok_id=
    local st
    st=$(api POST /api/account/tokens "{\"scopes\":$1,\"description\":\"$2\"}" "${cookie[@]}")
    [ "$st" = 200 ] || { fail "make a token $1" "$st $(cat "$dir/body")"; return 1; }
    tok=$(js 'd["token"]')
    tok_id=$(js 'd["id"]')
}
mint '["bot:play","challenge:write"]' "the bot" && bot_tok=$tok
mint '["challenge:write"]' "challenges only" && ch_tok=$tok
mint '["bot:play"]' "to revoke" && { old_tok=$tok; old_id=$tok_id; }
mint '["board:play"]' "for the limits" && lim_tok=$tok
if [[ $bot_tok == cit_* && $ch_tok == cit_* && $bot_tok != "$ch_tok" ]]; then
    pass "tokens are made, each its own, starting cit_"
else
    fail "tokens are made, each its own, starting cit_" "$bot_tok / $ch_tok"
fi

expect "the list has the four tokens" 200 "$(api GET /api/account/tokens "" "${cookie[@]}")"
expect "... with their scopes and descriptions, no token itself" \
    "[['bot:play', 'challenge:write'], 'the bot', ['challenge:write'], 'challenges only', ['bot:play'], 'to revoke', ['board:play'], 'for the limits'] False" \
    "$(js '[x for t in d["tokens"] for x in (sorted(t["scopes"]), t["description"])], "cit_" in json.dumps(d)')"
expect "a token alone cannot list tokens" 401 "$(api GET /api/account/tokens "" -H "$(bearer "$bot_tok")")"
api GET /api/me "" -c "$dir/guest" >/dev/null
expect "a guest cannot make tokens" 401 \
    "$(api POST /api/account/tokens '{"scopes":["bot:play"],"description":"x"}' -b "$dir/guest")"
expect "an unknown scope is refused" 400 \
    "$(api POST /api/account/tokens '{"scopes":["bot:admin"],"description":"x"}' "${cookie[@]}")"

expect "GET /api/account with a token" 200 "$(api GET /api/account "" -H "$(bearer "$ch_tok")")"
expect "... names the token's account, not a bot yet" "$name False" "$(js 'd["name"], d["bot"]')"

expect "revoke a token" 200 "$(api DELETE "/api/account/tokens/$old_id" "" "${cookie[@]}")"
expect "... answers ok" True "$(js 'd["ok"]')"
api GET /api/account/tokens "" "${cookie[@]}" >/dev/null
expect "... and it is gone from the list" False "$(js "any(t['id'] == $old_id for t in d['tokens'])")"
expect "revoking it again: 404" 404 "$(api DELETE "/api/account/tokens/$old_id" "" "${cookie[@]}")"

# the token rules, on the one request that changes the account for good
expect "upgrade without a token: 401" 401 "$(api POST /api/bot/account/upgrade)"
expect "... with an error" True "$(js 'len(d["error"]) > 0')"
expect "upgrade with a revoked token: 401" 401 \
    "$(api POST /api/bot/account/upgrade "" -H "$(bearer "$old_tok")")"
expect "a revoked token reads nothing: 401" 401 "$(api GET /api/account "" -H "$(bearer "$old_tok")")"
expect "upgrade with a token without bot:play: 401" 401 \
    "$(api POST /api/bot/account/upgrade "" -H "$(bearer "$ch_tok")")"
expect "a made-up token: 401" 401 \
    "$(api GET /api/account "" -H "$(bearer cit_0123456789abcdef0123456789abcdef01234567)")"
api GET /api/account "" -H "$(bearer "$bot_tok")" >/dev/null
expect "... and none of them made it a bot account" False "$(js 'd["bot"]')"
expect "the event stream needs bot:play or board:play: 401" 401 \
    "$(api GET /api/stream/event "" -H "$(bearer "$ch_tok")")"

expect "upgrade with bot:play" 200 "$(api POST /api/bot/account/upgrade "" -H "$(bearer "$bot_tok")")"
api GET /api/account "" -H "$(bearer "$bot_tok")" >/dev/null
expect "... and it is a bot account" True "$(js 'd["bot"]')"
api GET "/api/players/$name" >/dev/null
expect "... which its page shows as a bot" True "$(js 'd["player"]["bot"]')"

expect "a challenge with a token without challenge:write: 401" 401 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart"}' -H "$(bearer "$lim_tok")")"
api GET /api/lobby >/dev/null
expect "... and no game began" 0 "$(js "sum(any(p and p['name'] == '$name' for p in g['players']) for g in d['games'])")"

# --- an account idle with nothing open ----------------------------------------
# its game with a built-in bot is made now; the account then opens nothing
# until the end of this script, past the 3 s (--api-idle-ms) after which
# the server lets an idle account's client go (botapi.c; it looks every 3 s):
# its move then is answered, not left to time out (504) though it was played
idler=idle$$
api POST /api/signup "{\"name\":\"$idler\",\"password\":\"correct horse battery\"}" -c "$dir/idle.jar" >/dev/null
idle_tok=
st=$(api POST /api/account/tokens '{"scopes":["board:play","challenge:write"],"description":"idle"}' -b "$dir/idle.jar")
[ "$st" = 200 ] && idle_tok=$(js 'd["token"]')
expect "an idle account's game with bot-random starts" 200 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart","clock":{"limit":900,"increment":0}}' -H "$(bearer "$idle_tok")")"
idle_game=$(js 'd["challenge"]["game"]')
idle_since=$(date +%s)

# --- limits, with a token of their own --------------------------------------
curl -s -N -H "$(bearer "$lim_tok")" "$url/api/stream/event" >/dev/null &
s1=$!
curl -s -N -H "$(bearer "$lim_tok")" "$url/api/stream/event" >/dev/null &
s2=$!
sleep 1
expect "a third stream past --limit api-streams=2: 429" 429 \
    "$(api GET /api/stream/event "" -H "$(bearer "$lim_tok")")"
kill "$s1" "$s2" 2>/dev/null
wait "$s1" "$s2" 2>/dev/null
codes=$(for _ in $(seq 1 100); do printf '%s\n' "-o /dev/null" "url = \"$url/api/account\""; done |
        curl -s -K - -H "$(bearer "$lim_tok")" -w '%{http_code}\n')
n429=$(grep -c '^429$' <<<"$codes")
n200=$(grep -c '^200$' <<<"$codes")
if [ "$n429" -gt 0 ] && [ "$n200" -ge 20 ]; then
    pass "100 requests at once: the first pass, then 429 (api-requests)"
else
    fail "100 requests at once: the first pass, then 429 (api-requests)" "$n200 answered 200, $n429 answered 429"
fi

# --- the bot plays ----------------------------------------------------------
log=$dir/lines.ndjson
declare -A ids
bot() {  # OPPONENT VARIANT ARGS...: one game; prints the bot's game line
    timeout 150 $py examples/bot.py --server "$url" --token "$bot_tok" --engine "$CITADEL" \
        --movetime 40 --challenge "$1" --variant "$2" --log "$log" "${@:3}" 2>"$dir/bot.err"
}
for spec in "bot-level1 rampart --clock 30+0 --move-limit 50" \
            "bot-random keeps-moats --move-limit 25" \
            "bot-random stratego --clock 30+0 --move-limit 200"; do
    set -- $spec
    variant=$2
    out=$(bot "$@")
    rc=$?
    id=$(sed -n "s/^\([0-9]*\) $variant .*/\1/p" <<<"$out")
    if [ $rc -ne 0 ] || [ -z "$id" ]; then
        fail "$variant: the bot plays a game against $1" "exit $rc: $out
$(tail -n 20 "$dir/bot.err")"
        continue
    fi
    pass "$variant: the bot plays a game against $1"
    errors=$(grep -v '^playing as ' "$dir/bot.err")
    expect "$variant: the bot met no error (a refused move, a lost stream)" "" "$errors"
    ids[$variant]=$id
    api GET "/api/games/$id" >/dev/null
    expect "$variant: game $id is over" "over $variant" "$(js 'd["status"], d["variant"]')"
    expect "$variant: the bot played in it, and moves were made" True \
        "$(js "any(p and p['name'] == '$name' for p in d['players']) and len(d['moves']) >= 4 or (d.get('result'), d['moves'])")"
    if grep -qE "^$id $variant (.+ wins|draw) \([a-z-]+\)$" <<<"$out"; then
        pass "$variant: the bot names the result ($out)"
    else
        fail "$variant: the bot names the result" "$out"
    fi
done

# gameFull: `you` is the bot's side; initialFen is the game's start
# (citadel uci's notation), empty for Stratego while its setups are secret
api GET "/api/games/${ids[rampart]}" >/dev/null
start=$(js 'd["start"]')
expect "each gameFull: you is the bot's side, initialFen the start (empty for Stratego)" \
    "True True True rampart=$start stratego=" \
    "$($py -c 'import json,sys
full = [l for l in map(json.loads, open(sys.argv[1])) if l["type"] == "gameFull"]
print(*[l["players"][l["you"]]["name"] == sys.argv[2] for l in full],
      *[l["variant"]["key"] + "=" + l["initialFen"] for l in full if l["variant"]["key"] != "keeps-moats"])' "$log" "$name")"

# a challenge to a built-in bot starts the game at once; resigning ends it
expect "challenge bot-random" 200 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart","clock":{"limit":60,"increment":1}}' -H "$(bearer "$bot_tok")")"
game=$(js 'd["challenge"]["game"]')
expect "... accepted, with its game" "accepted True" "$(js 'd["challenge"]["status"], d["challenge"]["game"] > 0')"
api GET /api/lobby >/dev/null
expect "... a live game of the bot's in the lobby" 1 \
    "$(js "sum(any(p and p['name'] == '$name' for p in g['players']) for g in d['games'])")"
timeout 30 curl -s -N -H "$(bearer "$bot_tok")" "$url/api/bot/game/stream/$game" >"$dir/resign.lines" &
streamer=$!
sleep 0.5
expect "resign it" 200 "$(api POST "/api/bot/game/$game/resign" "" -H "$(bearer "$bot_tok")")"
wait "$streamer"
expect "... its stream ends after the last state: resign, the other side the winner" \
    "gameState resign True" \
    "$($py -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
full, last = lines[0], lines[-1]
print(last["type"], last["status"], last.get("winners") == [full["sides"][1 - full["you"]]])' "$dir/resign.lines" 2>&1)"
api GET "/api/games/$game" >/dev/null
expect "... and it is over" over "$(js 'd["status"]')"

# every line read, against the schema; each game began with gameFull and
# was told to the event stream
out=$($py tests/schema/check_wire.py --ndjson "$log" "$dir/resign.lines" 2>&1)
if [ $? -eq 0 ]; then pass "every stream line as docs/api.schema.json says (${out##*: })"
else fail "every stream line as docs/api.schema.json says" "$out"; fi
expect "each game: gameStart, gameFull and gameFinish" "3 3 3" \
    "$($py -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1])]
print(*(sum(l["type"] == t for l in lines) for t in ("gameStart", "gameFull", "gameFinish")))' "$log")"

# --seek: the bot's seek is in the lobby while it runs, with its settings
$py examples/bot.py --server "$url" --token "$bot_tok" --engine "$CITADEL" --seek \
    --variant rampart --clock 120+2 2>"$dir/seek.err" &
seeker=$!
lobby=
for _ in $(seq 1 50); do
    api GET /api/lobby >/dev/null
    lobby=$(js "[(k['variant'], k['base_ms'], k['inc_ms']) for k in d['seeks'] if k['player']['name'] == '$name']")
    [ "$lobby" != "[]" ] && break
    sleep 0.1
done
expect "bot.py --seek: its seek is in the lobby" "[('rampart', 120000, 2000)]" "$lobby"
kill "$seeker" 2>/dev/null
wait "$seeker" 2>/dev/null

expect "a seek through the API" 200 \
    "$(api POST /api/bot/seek '{"variant":"rampart","clock":{"limit":300,"increment":0}}' -H "$(bearer "$bot_tok")")"
sid=$(js 'd["id"]')
api GET /api/lobby >/dev/null
expect "... is in the lobby" True "$(js "any(k['id'] == $sid and k['base_ms'] == 300000 for k in d['seeks'])")"
expect "... and withdrawn" 200 "$(api DELETE "/api/bot/seek/$sid" "" -H "$(bearer "$bot_tok")")"
api GET /api/lobby >/dev/null
expect "... is gone from it" False "$(js "any(k['id'] == $sid for k in d['seeks'])")"

# --- challenges between two API accounts --------------------------------------
# a person with a board:play token challenges the bot: declined, withdrawn,
# then accepted and resigned; both event streams are kept and checked
person=e2eperson$$
api POST /api/signup "{\"name\":\"$person\",\"password\":\"correct horse battery\"}" -c "$dir/jar2" >/dev/null
cookie=(-b "$dir/jar2")
mint '["board:play","challenge:write"]' "a person's" && p_tok=$tok
curl -s -N -H "$(bearer "$bot_tok")" "$url/api/stream/event" >"$dir/bot.events" &
e1=$!
curl -s -N -H "$(bearer "$p_tok")" "$url/api/stream/event" >"$dir/person.events" &
e2=$!
sleep 0.5
# seen FILE TYPE [N]: waits until FILE has N lines (default 1) of that type
seen() {
    for _ in $(seq 1 100); do
        [ "$(grep -c "\"type\":\"$2\"" "$1")" -ge "${3:-1}" ] && return 0
        sleep 0.1
    done
    return 1
}
challenge_bot() {
    api POST "/api/challenge/$name" '{"variant":"rampart","clock":{"limit":60,"increment":0}}' \
        -H "$(bearer "$p_tok")" >/dev/null
    js 'd["challenge"]["id"]'
}
cid=$(challenge_bot)
expect "a challenge to the bot waits, with its url" "created True" \
    "$(js 'd["challenge"]["status"], d["challenge"]["url"].endswith(d["challenge"]["id"])')"
seen "$dir/bot.events" challenge
expect "... the bot hears of it" True "$(grep -c "\"id\":\"$cid\"" "$dir/bot.events" | sed 's/^[1-9].*/True/')"
expect "the bot declines it" 200 "$(api POST "/api/challenge/$cid/decline" "" -H "$(bearer "$bot_tok")")"
seen "$dir/person.events" challengeDeclined && pass "... the challenger hears challengeDeclined" ||
    fail "... the challenger hears challengeDeclined" "$(cat "$dir/person.events")"
cid=$(challenge_bot)
seen "$dir/bot.events" challenge 2
expect "the challenger withdraws the next" 200 "$(api POST "/api/challenge/$cid/cancel" "" -H "$(bearer "$p_tok")")"
seen "$dir/bot.events" challengeCanceled && pass "... the bot hears challengeCanceled" ||
    fail "... the bot hears challengeCanceled" "$(cat "$dir/bot.events")"
expect "a withdrawn challenge cannot be accepted: 404" 404 \
    "$(api POST "/api/challenge/$cid/accept" "" -H "$(bearer "$bot_tok")")"
cid=$(challenge_bot)
seen "$dir/bot.events" challenge 3
expect "the bot accepts the third" 200 "$(api POST "/api/challenge/$cid/accept" "" -H "$(bearer "$bot_tok")")"
pgame=$(js 'd["challenge"]["game"]')
expect "... and the game starts" accepted "$(js 'd["challenge"]["status"]')"
seen "$dir/bot.events" gameStart && seen "$dir/person.events" gameStart &&
    pass "... gameStart on both event streams" ||
    fail "... gameStart on both event streams" "$(tail -n 3 "$dir/bot.events" "$dir/person.events")"
expect "a board:play token on /api/bot: 401 (it lacks bot:play)" 401 \
    "$(api POST "/api/bot/game/$pgame/resign" "" -H "$(bearer "$p_tok")")"
expect "the person resigns through /api/board" 200 "$(api POST "/api/board/game/$pgame/resign" "" -H "$(bearer "$p_tok")")"
seen "$dir/bot.events" gameFinish 1 && seen "$dir/person.events" gameFinish &&
    pass "... gameFinish on both event streams" ||
    fail "... gameFinish on both event streams" "$(tail -n 3 "$dir/bot.events" "$dir/person.events")"
# a game the bot does not play: its stream is 403
expect "the person challenges bot-random" 200 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart"}' -H "$(bearer "$p_tok")")"
other=$(js 'd["challenge"]["game"]')
expect "... the bot may not open that game's stream: 403" 403 \
    "$(api GET "/api/bot/game/stream/$other" "" -H "$(bearer "$bot_tok")")"
st=$(api POST "/api/bot/game/$other/resign" "" -H "$(bearer "$bot_tok")")
api GET "/api/games/$other" >/dev/null
expect "... nor resign it: refused, and the game goes on" "4xx live" "${st/#4??/4xx} $(js 'd["status"]')"
api POST "/api/board/game/$other/resign" "" -H "$(bearer "$p_tok")" >/dev/null
# an account that has played is not made a bot account
mint '["bot:play"]' "too late" && late_tok=$tok
expect "upgrading an account that has played: 400" 400 \
    "$(api POST /api/bot/account/upgrade "" -H "$(bearer "$late_tok")")"
api GET /api/account "" -H "$(bearer "$late_tok")" >/dev/null
expect "... and it is still no bot" False "$(js 'd["bot"]')"
kill "$e1" 2>/dev/null
wait "$e1" 2>/dev/null

# bot.py alone accepts a challenge and plays until the game ends
$py examples/bot.py --server "$url" --token "$bot_tok" --engine "$CITADEL" --movetime 40 \
    --log "$dir/listen.lines" >"$dir/listen.out" 2>"$dir/listen.err" &
listener=$!
sleep 1
n0=$(grep -c '"type":"gameStart"' "$dir/person.events")
api POST "/api/challenge/$name" '{"variant":"rampart","clock":{"limit":60,"increment":0}}' -H "$(bearer "$p_tok")" >/dev/null
seen "$dir/person.events" gameStart $((n0 + 1))
lgame=$(grep '"type":"gameStart"' "$dir/person.events" | tail -n 1 | $py -c 'import json,sys; print(json.load(sys.stdin)["game"]["id"])' 2>/dev/null)
sleep 1
api POST "/api/board/game/$lgame/resign" "" -H "$(bearer "$p_tok")" >/dev/null
for _ in $(seq 1 100); do
    [ -s "$dir/listen.out" ] && break
    sleep 0.1
done
expect "bot.py accepts a challenge and plays it to its end" "$lgame rampart resign" \
    "$(sed -n 's/^\([0-9]*\) \([a-z-]*\) .* wins (\([a-z-]*\))$/\1 \2 \3/p' "$dir/listen.out")"
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
kill "$e2" 2>/dev/null
wait "$e2" 2>/dev/null
out=$($py tests/schema/check_wire.py --ndjson "$dir/bot.events" "$dir/person.events" "$dir/listen.lines" 2>&1)
if [ $? -eq 0 ]; then pass "both event streams, and what bot.py read, as docs/api.schema.json says (${out##*: })"
else fail "both event streams, and what bot.py read, as docs/api.schema.json says" "$out"; fi

out=$($py tests/schema/check_wire.py "$wire" 2>&1)
if [ $? -eq 0 ]; then pass "every answer as docs/api.schema.json says (${out##*: })"
else fail "every answer as docs/api.schema.json says" "$out"; fi

while [ $(($(date +%s) - idle_since)) -lt 8 ]; do sleep 1; done
api GET "/api/games/$idle_game" >/dev/null
expect "the idle account's turn (bot-random has answered any first move)" True \
    "$(js "d['players'][d['to_move']]['name'] == '$idler'")"
idle_ply=$(js 'len(d["moves"])')
api POST /api/position "$(js 'json.dumps({"variant": d["variant"], "position": d["position"]})')" >/dev/null
idle_move=$(js 'd["legal"][0]["move"]')
expect "after 8 s with nothing open, the idle account moves: answered" 200 \
    "$(api POST "/api/board/game/$idle_game/move/$idle_move" "" -H "$(bearer "$idle_tok")")"
api GET "/api/games/$idle_game" >/dev/null
expect "... and the move is played" "$idle_move" "$(js "d['moves'][$idle_ply]")"

expect "the stream of a game not live: 404" 404 \
    "$(api GET /api/bot/game/stream/999999 "" -H "$(bearer "$bot_tok")")"

kill "$pid"
wait "$pid"
expect "the server stops cleanly" 0 "$?"
