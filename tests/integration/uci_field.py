#!/usr/bin/env python3
"""uci_field.py -- `citadel uci` against Fairy-Stockfish, answer by answer.

Usage: uci_field.py CITADEL FAIRY_STOCKFISH

Both engines get the same command sequences (Citadel a Rampart position
where Fairy-Stockfish gets a chess one) and the *shapes* of their answers
are compared: which lines come, in what order, in what format; never the
values (moves, scores, node counts). Run by test_uci_field.sh; prints TAP.

A shape is one word per line, the kind of the line ("readyok", "option",
"info", "bestmove+ponder", ...); a search's info line also keeps the
order of the fields both engines print (depth, seldepth, score, nodes,
nps, time, pv). Blank lines, and what an engine prints before the first
command (Fairy-Stockfish's banner), are left out.
"""
import queue
import re
import subprocess
import sys
import threading
import time

CITADEL, FSF = sys.argv[1], sys.argv[2]

# The positions: a game over where the side to move has lost, a draw.
LOST = {"fsf": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "citadel": "4q/2Q2/5/2n2/1BkB1/2B2/5/5/K4 b 1 moves c8xc6"}
DRAWN = {"fsf": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
         "citadel": "q4/5/5/5/5/5/5/5/Q4 b 1"}
VARIANT = {"fsf": "chess", "citadel": "rampart"}

# The options both announce, with the type they must have in both.
COMMON = {"Threads": "spin", "Hash": "spin", "Clear Hash": "button", "Ponder": "check",
          "MultiPV": "spin", "Skill Level": "spin", "Move Overhead": "spin",
          "UCI_Variant": "combo", "UCI_AnalyseMode": "check",
          "UCI_LimitStrength": "check", "UCI_Elo": "spin"}
SETOPTIONS = ["setoption name Threads value 1", "setoption name Hash value 16",
              "setoption name Clear Hash", "setoption name Move Overhead value 30",
              "setoption name Ponder value false", "setoption name MultiPV value 1",
              "setoption name Skill Level value 20", "setoption name UCI_LimitStrength value false",
              "setoption name UCI_Elo value 1500", "setoption name UCI_AnalyseMode value false"]

OPTION = {
    "spin": r"option name (.+) type spin default -?\d+ min -?\d+ max -?\d+",
    "check": r"option name (.+) type check default (true|false)",
    "combo": r"option name (.+) type combo default \S+( var \S+)+",
    "button": r"option name (.+) type button",
    "string": r"option name (.+) type string default ?.*",
}
SEARCH_FIELDS = ["depth", "seldepth", "score", "nodes", "nps", "time", "pv"]
MOVE = r"\S+"


class Engine:
    def __init__(self, name, argv):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.lines(0.5)  # a banner, if any

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, *cmds):
        for c in cmds:
            self.p.stdin.write(c + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout=30):
        """The lines up to and with the first for which pred is true."""
        out, end = [], time.time() + timeout
        while time.time() < end:
            try:
                line = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if line is None:
                break
            out.append(line)
            if pred(line):
                return out
        raise TimeoutError("%s: no answer; got %r" % (self.name, out))

    def lines(self, seconds):
        """Whatever comes within that many seconds."""
        out, end = [], time.time() + seconds
        while True:
            try:
                line = self.q.get(timeout=max(0.0, end - time.time()))
            except queue.Empty:
                return out
            if line is None:
                return out
            out.append(line)

    def quit(self):
        try:
            self.send("quit")
            return self.p.wait(timeout=10)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.p.kill()
            return None


def kind(line):
    """The shape of one line."""
    if re.fullmatch(r"id name .+", line):
        return "id name"
    if re.fullmatch(r"id author .+", line):
        return "id author"
    if line.startswith("option "):
        return "option" if any(re.fullmatch(r, line) for r in OPTION.values()) else "BAD " + line
    if line in ("uciok", "readyok", "bestmove (none)"):
        return line
    if re.fullmatch(r"bestmove %s" % MOVE, line):
        return "bestmove"
    if re.fullmatch(r"bestmove %s ponder %s" % (MOVE, MOVE), line):
        return "bestmove+ponder"
    if re.fullmatch(r"info depth 0 score (mate 0|cp 0)", line):
        return line
    if re.fullmatch(r"info string variant \S+ files \d+ ranks \d+ .*startpos .+", line):
        return "info string variant"
    if re.fullmatch(r"No such option: .+", line):
        return "No such option"
    if line.startswith("info ") and " pv " in line:
        words = line.split()
        fields = [w for w in words if w in SEARCH_FIELDS]
        ok = re.search(r" score (cp|mate) -?\d+", line) and re.search(r" pv( \S+)+$", line)
        return "info " + " ".join(fields) if ok else "BAD " + line
    if line.startswith("info "):
        return "info"
    return "OTHER " + line


def shape(lines, collapse=("option", "info")):
    """The kinds of the lines, blank ones left out and runs of one
    collapsing kind as one."""
    out = []
    for line in lines:
        if not line.strip():
            continue
        k = kind(line)
        if out and k == out[-1] and any(k.startswith(c) for c in collapse):
            continue
        out.append(k)
    return out


def searched(lines, ponder=False):
    """A search's answer: its info lines (a run of one kind as one), the
    bestmove. UCI makes bestmove's ponder move optional, and Citadel names
    it only with Ponder on (Fairy-Stockfish always does): without Ponder,
    "bestmove+ponder" reads as "bestmove"."""
    out = []
    for k in shape(lines):
        if k == "info string variant":
            continue
        if k == "bestmove+ponder" and not ponder:
            k = "bestmove"
        out.append(k)
    return out


tests = []


def check(name, a, b):
    tests.append((name, a == b, "fairy-stockfish: %r\n    citadel:       %r" % (a, b)))


def session(e, who):
    """Every exchange of the sequence: name -> shape of the answer."""
    got = {}
    e.send("uci")
    lines = e.until(lambda l: l == "uciok")
    got["uci ... uciok"] = shape(lines)
    announced = {}
    for line in lines:
        m = re.match(r"option name (.+?) type (\S+)", line)
        if m:
            announced[m.group(1)] = m.group(2)
    got["the common options and their types"] = {n: announced.get(n) for n in COMMON}
    e.send("isready")
    got["isready"] = shape(e.until(lambda l: l == "readyok"))
    e.send("setoption name UCI_Variant value " + VARIANT[who],
           "setoption name UCI_Variant value " + VARIANT[who], *SETOPTIONS)
    e.send("isready")
    got["UCI_Variant twice, the common options (names with spaces)"] = shape(
        e.until(lambda l: l == "readyok"), collapse=())
    e.send("ucinewgame", "isready")
    got["ucinewgame"] = shape(e.until(lambda l: l == "readyok"))
    e.send("setoption name Foo Bar value 1", "isready")
    got["an unknown option"] = shape(e.until(lambda l: l == "readyok"))
    e.send("position fen " + LOST[who], "go depth 5")
    got["go on a lost game"] = shape(e.until(lambda l: l.startswith("bestmove")))
    e.send("position fen " + DRAWN[who], "go depth 5")
    got["go on a drawn game"] = shape(e.until(lambda l: l.startswith("bestmove")))
    e.send("position startpos", "go depth 5")
    got["go depth 5"] = searched(e.until(lambda l: l.startswith("bestmove")))
    e.send("setoption name Ponder value true", "position startpos", "go depth 5")
    got["go depth 5 with Ponder"] = searched(e.until(lambda l: l.startswith("bestmove")), True)
    e.send("setoption name Ponder value false")
    # go infinite: isready answered during the search, no bestmove until stop
    e.send("position startpos", "go infinite")
    before = e.lines(0.5)
    e.send("isready")
    during = e.until(lambda l: l == "readyok")
    during += e.lines(0.5)
    e.send("stop")
    after = e.until(lambda l: l.startswith("bestmove"))
    # (when the search's lines come, against readyok, is the engine's affair)
    got["go infinite, isready, stop"] = [k for k in searched(before + during) if k[:5] != "info "] + \
        ["stop"] + [k for k in searched(after) if k[:5] != "info "]
    e.send("isready")
    got["isready after stop"] = shape(e.until(lambda l: l == "readyok"))
    got["quit ends the engine"] = e.quit()
    return got


def main():
    try:
        f = session(Engine("fairy-stockfish", [FSF]), "fsf")
        c = session(Engine("citadel", [CITADEL, "uci"]), "citadel")
    except (TimeoutError, OSError) as err:
        print("not ok 1 - both engines answer the sequence")
        print("# " + str(err).replace("\n", "\n# "))
        print("1..1")
        return
    for name in f:
        check(name, f[name], c[name])
    for k in c["uci ... uciok"]:
        if k.startswith("BAD") or k.startswith("OTHER"):
            tests.append(("citadel's uci lines are well formed", False, k))
    for i, (name, ok, why) in enumerate(tests, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            print("#     " + why.replace("\n", "\n#     "))
    print("1..%d" % len(tests))


main()
