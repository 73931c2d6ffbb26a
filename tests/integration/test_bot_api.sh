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
expect "... names the token's account (lichess's id and username), not a bot yet" \
    "${name,,} $name False None" "$(js 'd["id"], d["username"], d["bot"], d.get("title")')"

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
expect "... and it is a bot account, titled BOT as lichess's" "True BOT" "$(js 'd["bot"], d["title"]')"
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
idle_game=$(js 'd["id"]')
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
# the lines of a game of more than two sides, in Citadel's own shape, apart
kmlog=$dir/keeps.ndjson
bot() {  # OPPONENT VARIANT ARGS...: one game; prints the bot's game line
    local to=$log
    [ "$2" = keeps-moats ] && to=$kmlog
    timeout 150 $py examples/bot.py --server "$url" --token "$bot_tok" --engine "$CITADEL" \
        --movetime 40 --challenge "$1" --variant "$2" --log "$to" "${@:3}" 2>"$dir/bot.err"
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
    if grep -qE "^$id $variant (.+ wins|draw) \([a-zA-Z-]+\)$" <<<"$out"; then
        pass "$variant: the bot names the result ($out)"
    else
        fail "$variant: the bot names the result" "$out"
    fi
done

# gameFull: `you` is the bot's side, and in a two-sided game white (the
# side that moves first) or black says the same; initialFen is "startpos"
# for the variant's own start, empty for Stratego while its setups are
# secret; the clock is lichess's, in ms
expect "each gameFull: you is the bot's side, white/black agree, initialFen, clock in ms" \
    "True True True rampart=startpos/30000 stratego=/30000 keeps-moats=startpos/None" \
    "$($py -c 'import json,sys
full = [l for f in sys.argv[3:] for l in map(json.loads, open(f)) if l["type"] == "gameFull"]
me = sys.argv[2]
print(*[l["players"][l["you"]]["name"] == me and
        ("white" not in l or l[("white", "black")[l["you"]]]["id"] == me.lower()) for l in full],
      *[l["variant"]["key"] + "=" + l["initialFen"] + "/" + str((l.get("clock") or {}).get("initial"))
        for l in full])' "" "$name" "$log" "$kmlog")"

# a challenge to a built-in bot starts the game at once; resigning ends it
expect "challenge bot-random" 200 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart","clock":{"limit":60,"increment":1}}' -H "$(bearer "$bot_tok")")"
game=$(js 'd["id"]')
expect "... accepted: the challenge's id is its game's" "accepted True" "$(js 'd["status"], d["id"] == d["game"] and int(d["id"]) > 0')"
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
mine = "white" if full["white"]["id"] == sys.argv[2].lower() else "black"
print(last["type"], last["status"], last.get("winner") == {"white": "black", "black": "white"}[mine])' "$dir/resign.lines" "$name" 2>&1)"
api GET "/api/games/$game" >/dev/null
expect "... and it is over" over "$(js 'd["status"]')"

# every line read, against the schema; each game began with gameFull and
# was told to the event stream
out=$($py tests/schema/check_wire.py --ndjson "$log" "$kmlog" "$dir/resign.lines" 2>&1)
if [ $? -eq 0 ]; then pass "every stream line as docs/api.schema.json says (${out##*: })"
else fail "every stream line as docs/api.schema.json says" "$out"; fi
expect "each game: gameStart, gameFull and gameFinish" "3 3 3" \
    "$($py -c 'import json,sys
lines = [json.loads(l) for f in sys.argv[1:] for l in open(f)]
print(*(sum(l["type"] == t for l in lines) for t in ("gameStart", "gameFull", "gameFinish")))' "$log" "$kmlog")"

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
    js 'd["id"]'
}
cid=$(challenge_bot)
expect "a challenge to the bot waits, with its url, its random side settled (finalColor)" "created True True" \
    "$(js 'd["status"], d["url"].endswith("/play/" + d["id"]) and d["url"].startswith("http"), d["color"] == "random" and d["finalColor"] in ("white", "black")')"
seen "$dir/bot.events" challenge
expect "... the bot hears of it" True "$(grep -c "\"id\":\"$cid\"" "$dir/bot.events" | sed 's/^[1-9].*/True/')"
api GET /api/challenge "" -H "$(bearer "$bot_tok")" >/dev/null
expect "GET /api/challenge: the bot's in, the challenger's out" "[['$cid', 'in']] []" \
    "$(js '[[c["id"], c.get("direction", "in")] for c in d["in"]], d["out"]')"
api GET /api/challenge "" -H "$(bearer "$p_tok")" >/dev/null
expect "... and the challenger's" "[] ['$cid']" "$(js 'd["in"], [c["id"] for c in d["out"]]')"
expect "the bot declines it, too fast (lichess's reason, any case)" 200 \
    "$(api POST "/api/challenge/$cid/decline" '{"reason":"tooFast"}' -H "$(bearer "$bot_tok")")"
seen "$dir/person.events" challengeDeclined && pass "... the challenger hears challengeDeclined" ||
    fail "... the challenger hears challengeDeclined" "$(cat "$dir/person.events")"
expect "... with lichess's reason key" toofast \
    "$(grep challengeDeclined "$dir/person.events" | $py -c 'import json,sys; print(json.load(sys.stdin)["challenge"]["declineReasonKey"])')"
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
expect "... and the game starts" "True accepted" "$(js 'd["ok"], d["challenge"]["status"]')"
seen "$dir/bot.events" gameStart && seen "$dir/person.events" gameStart &&
    pass "... gameStart on both event streams" ||
    fail "... gameStart on both event streams" "$(tail -n 3 "$dir/bot.events" "$dir/person.events")"
expect "a board:play token on /api/bot: 401 (it lacks bot:play)" 401 \
    "$(api POST "/api/bot/game/$pgame/resign" "" -H "$(bearer "$p_tok")")"
timeout 20 curl -s -N -H "$(bearer "$bot_tok")" "$url/api/bot/game/stream/$pgame" >"$dir/chat.lines" &
streamer=$!
sleep 0.5
expect "the person says something in the game (a form, lichess's chat)" 200 \
    "$(curl -s -o "$dir/body" -w '%{http_code}' -X POST -H "$(bearer "$p_tok")" \
        --data 'room=player&text=good+luck' "$url/api/board/game/$pgame/chat")"
expect "... the spectators' room is not the players': 400" 400 \
    "$(api POST "/api/bot/game/$pgame/chat" '{"room":"spectator","text":"hi"}' -H "$(bearer "$bot_tok")")"
expect "the person offers a draw (lichess's /draw/true)" 200 "$(api POST "/api/board/game/$pgame/draw/true" "" -H "$(bearer "$p_tok")")"
for _ in $(seq 1 50); do grep -q 'draw":true' "$dir/chat.lines" && grep -q chatLine "$dir/chat.lines" && break; sleep 0.1; done
expect "the bot declines it (/draw/0, as berserk says no)" 200 "$(api POST "/api/bot/game/$pgame/draw/0" "" -H "$(bearer "$bot_tok")")"
for _ in $(seq 1 50); do tail -n 1 "$dir/chat.lines" | grep -q 'draw":true' || break; sleep 0.1; done
expect "... and the offer is gone from the stream's last state" False \
    "$(tail -n 1 "$dir/chat.lines" | $py -c 'import json,sys; d = json.load(sys.stdin); print(bool(d.get("wdraw") or d.get("bdraw")))' 2>&1)"
expect "... the bot's game stream has the line and the offer (wdraw or bdraw)" "player $person good luck True" \
    "$($py -c 'import json,sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
chat = [l for l in lines if l["type"] == "chatLine"][0]
print(chat["room"], chat["username"], chat["text"], any(l.get("wdraw") or l.get("bdraw") for l in lines))' "$dir/chat.lines" 2>&1)"
kill "$streamer" 2>/dev/null
wait "$streamer" 2>/dev/null
expect "the person resigns through /api/board" 200 "$(api POST "/api/board/game/$pgame/resign" "" -H "$(bearer "$p_tok")")"
seen "$dir/bot.events" gameFinish 1 && seen "$dir/person.events" gameFinish &&
    pass "... gameFinish on both event streams" ||
    fail "... gameFinish on both event streams" "$(tail -n 3 "$dir/bot.events" "$dir/person.events")"
expect "... and with Accept: application/json, the game, its record in pgn" "True True" \
    "$(curl -s -H 'Accept: application/json' "$url/game/export/$pgame?pgnInJson=True" |
       $py -c 'import json,sys; d = json.load(sys.stdin); print(len(d["moves"]) >= 0, d["pgn"].startswith("[Event"))' 2>&1)"
pgn=$(curl -s -w '\n%{http_code} %{content_type}' "$url/game/export/$pgame")
expect "GET /game/export/ID (lichess's path): the record in PGN" "[Event 200 application/x-chess-pgn" \
    "$(head -n 1 <<<"$pgn" | cut -c1-6) $(tail -n 1 <<<"$pgn" | cut -d';' -f1)"
# a game the bot does not play: its stream is 403
expect "the person challenges bot-random" 200 \
    "$(api POST /api/challenge/bot-random '{"variant":"rampart"}' -H "$(bearer "$p_tok")")"
other=$(js 'd["id"]')
expect "... the bot may not open that game's stream: 403" 403 \
    "$(api GET "/api/bot/game/stream/$other" "" -H "$(bearer "$bot_tok")")"
st=$(api POST "/api/bot/game/$other/resign" "" -H "$(bearer "$bot_tok")")
api GET "/api/games/$other" >/dev/null
expect "... nor resign it: refused, and the game goes on" "4xx live" "${st/#4??/4xx} $(js 'd["status"]')"
api GET /api/account/playing "" -H "$(bearer "$p_tok")" >/dev/null
expect "GET /api/account/playing: the untimed game, as lichess's (no clock: 2147483 s)" \
    "$other black-or-white 2147483 bot-random" \
    "$(js '[(g["gameId"], "black-or-white" if g["color"] in ("white", "black") else g["color"], g["secondsLeft"], g["opponent"]["username"]) for g in d["nowPlaying"]][0]' | tr -d "(),'")"
line=$(curl -s -N --max-time 2 -H "$(bearer "$p_tok")" "$url/api/board/game/stream/$other" | head -n 1)
expect "... its gameFull: no clock, wtime and btime 2147483647, correspondence" "None 2147483647 2147483647 correspondence" \
    "$($py -c 'import json,sys; d = json.loads(sys.argv[1]); print(d.get("clock"), d["state"]["wtime"], d["state"]["btime"], d["speed"])' "$line" 2>&1)"
api POST "/api/board/game/$other/resign" "" -H "$(bearer "$p_tok")" >/dev/null
# lichess's other routes: the games under way, an untimed game's clocks,
# the bots online, a token's test, and the form bodies lichess's clients send
api GET /api/bot/online "" >/dev/null
expect "GET /api/bot/online: the built-in bots and the bot on its stream, titled BOT" "True True True" \
    "$($py -c 'import json,sys
users = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
names = [u["username"] for u in users]
print("bot-random" in names, sys.argv[2] in names, all(u["title"] == "BOT" for u in users))' "$dir/body" "$name" 2>&1)"
for ct in 'Content-Type: text/plain' 'Content-Type:' 'Content-Type: application/x-www-form-urlencoded'; do
    tt=$(curl -s -X POST -H "$ct" --data "$bot_tok,cit_nonsense0" "$url/api/token/test")
    expect "POST /api/token/test ($ct): a token's account and scopes; null for none" \
        "${name,,} bot:play,challenge:write None None" \
        "$($py -c 'import json,sys; d = json.loads(sys.argv[1]); t = d[sys.argv[2]]; print(t["userId"], t["scopes"], t["expires"], d["cit_nonsense0"])' "$tt" "$bot_tok" 2>&1)"
done
form() {  # PATH BODY TOKEN: a form as lichess's clients send it; prints the status
    curl -s -o "$dir/body" -w '%{http_code}' -X POST -H "$(bearer "$3")" \
        -H 'Content-Type: application/x-www-form-urlencoded' --data "$2" "$url$1"
}
expect "a form naming a field neither lichess nor Citadel has: 400, naming it" "400 True" \
    "$(form /api/challenge/bot-random 'variant=rampart&colour=white' "$p_tok") $(js '"colour" in d["error"]')"
expect "a form with a broken %-escape: 400, said plainly" "400 True" \
    "$(form /api/challenge/bot-random 'variant=ram%zzpart' "$p_tok") $(js '"%" in d["error"]')"
expect "a form naming a field twice: 400" "400 True" \
    "$(form /api/challenge/bot-random 'variant=rampart&variant=stratego' "$p_tok") $(js '"twice" in d["error"]')"
many=$(printf 'cit_x%03d,' $(seq 1 101))
expect "POST /api/token/test with 101 tokens: 400 (at most 100)" 400 \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST --data "$many" "$url/api/token/test")"
expect "days (correspondence): 400, said plainly" "400 True" \
    "$(form /api/challenge/bot-random 'variant=rampart&days=3' "$p_tok") $(js '"days" in d["error"]')"
expect "a form without a token: 415 (only JSON from a session)" 415 \
    "$(curl -s -o /dev/null -w '%{http_code}' -X POST -b "$dir/jar2" -H 'Content-Type: application/x-www-form-urlencoded' \
        --data 'variant=rampart' "$url/api/challenge/bot-random")"
expect "berserk's challenge: clock.limit 120, clock.increment 2, white, as a form" "200 120000 2000 white" \
    "$(form /api/challenge/bot-random 'variant=rampart&clock.limit=120&clock.increment=2&color=white&rated=false' "$p_tok") $(js 'd["timeControl"]["limit"] * 1000, d["timeControl"]["increment"] * 1000, d["finalColor"]' | tr -d '(),')"
fgame=$(js 'd["id"]')
expect "berserk's JSON (every field, null for unset): taken" 200 \
    "$(curl -s -o "$dir/body" -w '%{http_code}' -X POST -H "$(bearer "$p_tok")" -H 'Content-Type: application/json' \
        --data '{"rated":false,"clock.limit":60,"clock.increment":0,"days":null,"color":null,"variant":"rampart","fen":null}' \
        "$url/api/challenge/$name")"
expect "... a challenge of 60+0 for a random side, settled" "60 0 random True" \
    "$(js 'd["timeControl"]["limit"], d["timeControl"]["increment"], d["color"], d["finalColor"] in ("white", "black")' | tr -d "(),'")"
api POST "/api/challenge/$(js 'd["id"]')/cancel" "" -H "$(bearer "$p_tok")" >/dev/null
line=$(curl -s -N --max-time 2 -H "$(bearer "$p_tok")" "$url/api/board/game/stream/$fgame" | head -n 1)
expect "... its game: the clock in ms, the challenger white (who moves first)" "{'initial': 120000, 'increment': 2000} True" \
    "$($py -c 'import json,sys; d = json.loads(sys.argv[1]); print(d["clock"], d["white"]["id"] == sys.argv[2].lower())' "$line" "$person" 2>&1)"
expect "... a takeback asked: refused, 400" 400 "$(form "/api/board/game/$fgame/takeback/yes" '' "$p_tok")"
expect "... none to answer: ok" 200 "$(form "/api/board/game/$fgame/takeback/no" '' "$p_tok")"
expect "... a path's last slash is no part of it" 200 "$(form "/api/board/game/$fgame/takeback/no/" '' "$p_tok")"
expect "... aborted before a move (lichess's abort)" 200 "$(form "/api/board/game/$fgame/abort" '' "$p_tok")"
api GET "/api/games/$fgame" >/dev/null
expect "... and it is over, aborted" "over aborted" "$(js 'd["status"], d["result"]["reason"] if d.get("result") else d' | tr -d "(),'")"

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
lgame=$(grep '"type":"gameStart"' "$dir/person.events" | tail -n 1 | $py -c 'import json,sys; print(json.load(sys.stdin)["game"]["gameId"])' 2>/dev/null)
sleep 1
api POST "/api/board/game/$lgame/resign" "" -H "$(bearer "$p_tok")" >/dev/null
for _ in $(seq 1 100); do
    [ -s "$dir/listen.out" ] && break
    sleep 0.1
done
expect "bot.py accepts a challenge and plays it to its end" "$lgame rampart resign" \
    "$(sed -n 's/^\([0-9]*\) \([a-z-]*\) .* wins (\([a-zA-Z-]*\))$/\1 \2 \3/p' "$dir/listen.out")"
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

# lichess's published types (tests/schema/lichess_types.mjs): every line
# of the two-sided games' streams, both event streams, and every answer
# on a route lichess has; the game of more than two sides keeps its own
# shape (docs/bot-api.md) and is held to docs/api.schema.json alone
out=$(node tests/schema/lichess_types.mjs --ndjson "$log" "$dir/resign.lines" "$dir/bot.events" \
      "$dir/person.events" "$dir/listen.lines" --wire "$wire" 2>&1)
if [ $? -eq 0 ]; then pass "every stream line and answer as @lichess-org/types says (${out#lichess_types: })"
else fail "every stream line and answer as @lichess-org/types says" "$out"; fi

kill "$pid"
wait "$pid"
expect "the server stops cleanly" 0 "$?"
