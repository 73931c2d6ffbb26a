#!/usr/bin/env python3
# examples/bot.py -- a whole Citadel bot in Python 3 with its standard library
# only (docs/bot-api.md): it reads the Bot API's event stream, accepts
# challenges, and plays each of its games with one `citadel uci` process.
#
#   python3 examples/bot.py --server http://127.0.0.1:8080 --token cit_... \
#       --engine build/release/citadel [--movetime 500] [--seek --variant rampart]
#   python3 examples/bot.py ... --challenge bot-level6 --variant rampart \
#       [--clock 60+1] [--move-limit 50] [--games 3] [--accept-all] [--log FILE]
#
# --seek keeps a seek open in the lobby. --challenge plays --games games
# against that player, one after another, prints a line per game and exits
# (declining others' challenges unless --accept-all). --log appends every
# stream line read to FILE.
#
# It reads lichess's fields only (docs/bot-api.md), as a lichess bot would,
# except where lichess has none: a Stratego game's setup and its position
# (the bot's own view, since the other side's pieces are hidden), and a
# game of more than two sides, which keeps Citadel's own shape.
import argparse
import json
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


class ApiError(Exception):
    """A request refused (its status and the server's words), or not sent."""

    def __init__(self, text, status=0):
        super().__init__(text)
        self.status = status


class Api:
    def __init__(self, server, token, log=None):
        self.server = server.rstrip("/")
        self.token = token
        self.log = open(log, "a", encoding="utf-8") if log else None
        self.log_lock = threading.Lock()

    def open(self, method, path, body=None, timeout=30, form=False):
        """A request; body a dict, sent as JSON, or as a form (lichess's way)."""
        if body is None:
            data, kind = None, "application/json"
        elif form:
            data, kind = urllib.parse.urlencode(body).encode(), "application/x-www-form-urlencoded"
        else:
            data, kind = json.dumps(body).encode(), "application/json"
        headers = {"Authorization": "Bearer " + self.token, "Content-Type": kind}
        req = urllib.request.Request(self.server + path, data=data, method=method, headers=headers)
        try:
            return urllib.request.urlopen(req, timeout=timeout)
        except urllib.error.HTTPError as e:
            try:
                why = json.loads(e.read().decode()).get("error", "")
            except ValueError:
                why = e.reason
            raise ApiError(f"{method} {path} answered {e.code}: {why}", e.code) from None
        except (urllib.error.URLError, OSError) as e:
            raise ApiError(f"{method} {path}: cannot reach {self.server}: {e}") from None

    def call(self, method, path, body=None, form=False):
        for pause in (0.2, 0.4, 0.8, 1.6, 3.2, None):  # 429: past the token's request rate
            try:
                with self.open(method, path, body, form=form) as r:
                    return json.loads(r.read().decode() or "null")
            except ApiError as e:
                if e.status != 429 or pause is None:
                    raise
                time.sleep(pause)

    def stream(self, path):
        """The objects of an NDJSON stream, keep-alive lines skipped; the
        stream is open when this returns."""
        return self._lines(self.open("GET", path, timeout=60))

    def _lines(self, r):
        with r:
            for line in filter(None, (raw.decode().strip() for raw in r)):
                if self.log:
                    with self.log_lock:
                        self.log.write(line + "\n")
                        self.log.flush()
                yield json.loads(line)


class Engine:
    """One `citadel uci` process."""

    def __init__(self, path, variant, options):
        self.p = subprocess.Popen([path, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}",
                  *(f"setoption name {k} value {v}" for k, v in options.items()), "isready")
        self.wait("readyok")

    def send(self, *lines):
        self.p.stdin.write("".join(line + "\n" for line in lines if line))
        self.p.stdin.flush()

    def wait(self, word):
        for line in self.p.stdout:
            if line.split()[:1] == [word]:
                return line.split()
        raise RuntimeError("the engine stopped")

    def best(self, position, movetime):
        """position: the rest of a `position` command (`startpos moves ...`)."""
        self.send(f"position {position}", f"go movetime {movetime}")
        return self.wait("bestmove")[1]

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def play(api, args, gid, results, me):
    """Plays game gid to its end; leaves its last gameState in results[gid]."""
    engine, last, setup_sent = None, None, False
    side, initial = None, "startpos"
    base = f"/api/bot/game/{gid}"
    try:
        for msg in api.stream(f"/api/bot/game/stream/{gid}"):
            if msg.get("type") == "gameFull":
                variant, initial = msg["variant"]["key"], msg["initialFen"]
                if "white" in msg:  # two sides: white moves first
                    side = 0 if msg["white"]["id"] == me["id"] else 1
                    engine = Engine(args.engine, variant, {})
                else:  # more than two sides: Citadel's own shape, and settings
                    side = msg["you"]
                    engine = Engine(args.engine, variant, msg.get("options", {}))
                msg = msg["state"]
            elif msg.get("type") != "gameState":
                continue
            results[gid] = msg
            if msg["status"] != "started" or engine is None:
                continue
            if msg.get("phase") == "setup":  # Stratego's setups: Citadel's own
                if not setup_sent and side not in msg.get("ready", []):
                    # one of the game's library, as the built-in bots choose: a random
                    # arrangement may leave the Flag in the front row
                    setups = api.call("GET", f"/api/setups/{urllib.parse.quote(variant)}")
                    pick = [s["setup"] for s in setups["library"]] or [setups["random"]]
                    setup = random.choice(pick)
                    # a setup string is read from its owner's side: right for either colour
                    api.call("POST", base + "/setup", {"setup": setup})
                    setup_sent = True
                continue
            moves = msg["moves"].split()
            mine = msg["to_move"] == side if "wtime" not in msg else len(moves) % 2 == side
            if not mine or msg["moves"] == last:
                continue
            last = msg["moves"]
            if "wtime" not in msg or not initial:
                # more than two sides, or hidden pieces (initialFen is "" then):
                # the position as the bot may see it, Citadel's own field
                position = "fen " + msg["position"]
            else:
                position = ("startpos" if initial == "startpos" else "fen " + initial) + \
                    (" moves " + msg["moves"] if moves else "")
            move = engine.best(position, args.movetime)
            if move in ("(none)", "0000"):
                continue
            try:
                api.call("POST", f"{base}/move/{urllib.parse.quote(move, safe='')}")
            except ApiError as e:  # the game may have ended meanwhile: read on
                print(f"game {gid}: move {move} refused ({e})", file=sys.stderr)
    except (ApiError, OSError, RuntimeError, ValueError, KeyError) as e:
        print(f"game {gid}: {e}", file=sys.stderr)
    finally:
        if engine:
            engine.quit()


def settings(args, form=False):
    """A challenge's or seek's settings: lichess's form fields (form), or
    Citadel's JSON."""
    limit, _, inc = (args.clock or "").partition("+")
    if form:
        body = {"variant": args.variant, "rated": "false"}
        if limit:
            body.update({"clock.limit": int(limit), "clock.increment": int(inc or 0)})
    else:
        body = {"variant": args.variant, "rated": False}
        if limit:
            body["clock"] = {"limit": int(limit), "increment": int(inc or 0)}
    if args.move_limit:  # Citadel's own: lichess has no move limit
        body["move_limit"] = args.move_limit
    return body


def challenge(api, args, mine):
    """Challenges args.challenge; True if its game started at once (a
    built-in bot: the challenge's id is then the game's), its id in mine."""
    c = api.call("POST", f"/api/challenge/{urllib.parse.quote(args.challenge, safe='')}",
                 settings(args, form=True), form=True)
    if c["status"] == "accepted":
        mine.add(c["id"])
    return c["status"] == "accepted"


def main():
    ap = argparse.ArgumentParser(description="A Citadel bot that plays with `citadel uci`.")
    ap.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8080")
    ap.add_argument("--token", required=True, help="an API token with the scope bot:play")
    ap.add_argument("--engine", required=True, help="the citadel binary")
    ap.add_argument("--movetime", type=int, default=500, help="ms a move (default 500)")
    ap.add_argument("--challenge", metavar="NAME", help="challenge this player")
    ap.add_argument("--variant", help="the variant to play (a name of /api/variants)")
    ap.add_argument("--seek", action="store_true", help="keep a seek open in the lobby")
    ap.add_argument("--clock", metavar="LIMIT+INC", help="seconds, e.g. 60+1; none: no clock")
    ap.add_argument("--move-limit", type=int, default=0, help="the challenge's move limit")
    ap.add_argument("--games", type=int, default=1, help="games to play with --challenge")
    ap.add_argument("--accept-all", action="store_true", help="accept challenges while challenging")
    ap.add_argument("--log", metavar="FILE", help="append every stream line read to FILE")
    args = ap.parse_args()
    if (args.challenge or args.seek) and not args.variant:
        ap.error("--challenge and --seek need --variant")
    api = Api(args.server, args.token, args.log)
    try:
        me = api.call("GET", "/api/account")
        print(f"playing as {me['username']}", file=sys.stderr)
        sys.exit(run(api, args, me))
    except (ApiError, OSError, ValueError) as e:  # OSError: a stream silent past its timeout
        sys.exit(f"bot: {e}")
    except KeyboardInterrupt:
        pass


def run(api, args, me):
    """Reads the event stream; with --challenge, returns an exit status
    once the games are played (or a challenge is refused)."""
    threads, results = {}, {}
    mine = set()      # the games of our own challenges
    done = 0
    waiting = pending = False  # a challenge of ours is out; its game not begun
    events = api.stream("/api/stream/event")
    if args.challenge:
        waiting = True
        pending = not challenge(api, args, mine)
    elif args.seek:
        api.call("POST", "/api/bot/seek", settings(args))
    for ev in events:
        kind = ev.get("type")
        if kind == "challenge":
            c = ev["challenge"]
            if c["challenger"]["id"] == me["id"]:
                continue
            verb = "accept" if args.accept_all or not args.challenge else "decline"
            try:
                api.call("POST", f"/api/challenge/{urllib.parse.quote(str(c['id']))}/{verb}")
            except ApiError as e:
                print(f"bot: {e}", file=sys.stderr)
        elif kind == "gameStart":
            gid = ev["game"]["gameId"]
            if pending and ev["game"].get("opponent", {}).get("username") == args.challenge:
                mine.add(gid)
                pending = False
            if gid not in threads:
                threads[gid] = threading.Thread(target=play, args=(api, args, gid, results, me),
                                                daemon=True)
                threads[gid].start()
        elif kind in ("challengeDeclined", "challengeCanceled") and args.challenge:
            print(f"bot: the challenge {ev['challenge']['id']} was {kind[9:].lower()}", file=sys.stderr)
            return 1
        elif kind == "gameFinish":
            gid = ev["game"]["gameId"]
            if gid in threads:
                threads[gid].join(30)
            state = results.get(gid) or {"status": "started"}
            if "wtime" in state:  # two sides: lichess's winner and status
                won, why = (state["winner"] + " wins") if "winner" in state else "draw", state["status"]
            else:  # more than two: Citadel's own
                won = "+".join(state["winners"]) + " wins" if state.get("winners") else "draw"
                why = state.get("reason", state["status"])
            print(gid, ev["game"]["variant"]["key"], "unfinished" if state["status"] == "started"
                  else f"{won} ({why})", flush=True)
            if args.seek and not args.challenge:
                api.call("POST", "/api/bot/seek", settings(args))
            if args.challenge and gid in mine:
                done += 1
                waiting = False
                if done >= args.games:
                    return 0
        if args.challenge and not waiting:
            waiting = True
            pending = not challenge(api, args, mine)
    print("bot: the server ended the event stream", file=sys.stderr)
    return 1


if __name__ == "__main__":
    main()
