#!/usr/bin/env python3
"""strict_pgn.py -- a strict reader of PGN's export format, for tests.

Written from the PGN standard (Steven J. Edwards, 1994: sections 8.1 and
8.2 on the tag pair and movetext sections, 7 on tokens, 16 on export
format), apart from Citadel's own reader and writer: it checks the form of
every game and never replays a move. For each game it checks

  - tag pairs one per line, `[Name "value"]` with one space, nothing else on
    the line; names of letters, digits and '_' beginning with a capital;
    values with no control character, only \\" and \\\\ as escapes, at most
    255 characters; no name twice;
  - the Seven Tag Roster first and in order: Event, Site, Date, Round,
    White, Black, Result; Date as YYYY.MM.DD ('?' for unknown digits),
    Round as '?', '-' or dotted numbers, Result one of 1-0 0-1 1/2-1/2 *;
  - one empty line after the tags and one after the movetext;
  - movetext tokens: move number indications (digits, then '.' or '...',
    then one space or the line's end), symbols (a letter or digit, then
    letters, digits and _+#=:-/), NAGs ($ and digits), brace comments
    (closed, on any number of lines), ';' comments, '%' escape lines,
    variations (balanced);
  - move numbers: a number before the first move and before a move that
    follows a comment or a variation; each "N." one more than the last
    "N.", each "N..." equal to the current number;
  - the result token last, equal to the Result tag;
  - lines of at most 255 characters, movetext lines of at most 79, no tab,
    no carriage return.

Usage: strict_pgn.py FILE... ('-' for standard input). Prints
"FILE: N games" per file, or "FILE:LINE: why" per error; exit status 1 if
any error (or a file with no game), else 0.
"""
import re
import sys

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
TAG = re.compile(r'^\[([A-Z][A-Za-z0-9_]*) "((?:[^"\\]|\\["\\])*)"\]$')
DATE = re.compile(r"^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$")
ROUND = re.compile(r"^(\?|-|[0-9]+(\.[0-9]+)*)$")
SYMBOL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:/-]*")
NUMBER = re.compile(r"([0-9]+)(\.\.\.|\.)")
NAG = re.compile(r"\$[0-9]+")


class Broken(Exception):
    def __init__(self, line, why):
        super().__init__(why)
        self.line = line
        self.why = why


def check_game(lines, i):
    """Checks the game whose first tag is lines[i]; returns the index past it."""
    tags = {}
    order = []
    while i < len(lines) and lines[i].startswith("["):
        m = TAG.match(lines[i])
        if not m:
            raise Broken(i + 1, "not a tag pair of the export format: %r" % lines[i][:60])
        name, raw = m.group(1), m.group(2)
        value = raw.replace('\\"', '"').replace("\\\\", "\\")
        if len(value) > 255:
            raise Broken(i + 1, "tag %s: a value of more than 255 characters" % name)
        if any(ord(c) < 32 or ord(c) == 127 for c in value):
            raise Broken(i + 1, "tag %s: a control character in its value" % name)
        if name in tags:
            raise Broken(i + 1, "tag %s appears twice" % name)
        tags[name] = (value, i + 1)
        order.append(name)
        i += 1
    if order[: len(ROSTER)] != ROSTER:
        raise Broken(i, "the Seven Tag Roster is not first and in order: %s" % " ".join(order[:7]))
    if not DATE.match(tags["Date"][0]):
        raise Broken(tags["Date"][1], "Date is not YYYY.MM.DD")
    if not ROUND.match(tags["Round"][0]):
        raise Broken(tags["Round"][1], "Round is not ?, - or a number")
    result = tags["Result"][0]
    if result not in RESULTS:
        raise Broken(tags["Result"][1], "Result %r is none of 1-0 0-1 1/2-1/2 *" % result)
    if i >= len(lines) or lines[i] != "":
        raise Broken(i + 1, "no empty line after the tags")
    i += 1
    if i >= len(lines) or lines[i] == "":
        raise Broken(i + 1, "one empty line, then the movetext")
    first = i
    text = []
    while i < len(lines) and lines[i] != "":
        if len(lines[i]) > 79 and not lines[i].startswith("%"):
            raise Broken(i + 1, "a movetext line of more than 79 characters")
        text.append(lines[i])
        i += 1
    check_movetext(text, first, result)
    return i + 1


def check_movetext(text, first, result):
    number = None       # the current move number
    need_number = True  # the next move needs a move number indication
    depth = 0           # variations open
    done = False
    li = 0
    while li < len(text):
        line = text[li]
        lineno = first + li + 1
        if line.startswith("%"):
            li += 1
            continue
        p = 0
        while p < len(line):
            c = line[p]
            if done:
                raise Broken(lineno, "something after the result token")
            if c == " ":
                p += 1
            elif c == "{":
                end = line.find("}", p + 1)
                while end < 0:
                    li += 1
                    if li >= len(text):
                        raise Broken(lineno, "a comment is never closed")
                    line = text[li]
                    end = line.find("}")
                lineno = first + li + 1
                p = end + 1
                need_number = True
            elif c == ";":
                p = len(line)
                need_number = True
            elif c == "(":
                depth += 1
                p += 1
            elif c == ")":
                depth -= 1
                if depth < 0:
                    raise Broken(lineno, "')' closes no variation")
                p += 1
                need_number = True
            elif c == "$":
                m = NAG.match(line, p)
                if not m:
                    raise Broken(lineno, "'$' without a number")
                p = m.end()
            elif c == "*" or line.startswith(("1-0", "0-1", "1/2-1/2"), p):
                tok = "*" if c == "*" else next(t for t in ("1/2-1/2", "1-0", "0-1") if line.startswith(t, p))
                end = p + len(tok)
                if end < len(line) and line[end] != " ":
                    if c == "*":
                        raise Broken(lineno, "'*' followed by %r" % line[end])
                    tok = None  # a symbol that begins like a result
                if tok:
                    if depth:
                        raise Broken(lineno, "the result token inside a variation")
                    if tok != result:
                        raise Broken(lineno, "the result token %s differs from the Result tag %s" % (tok, result))
                    done = True
                    p = end
                    continue
                m = SYMBOL.match(line, p)
                p = m.end()
            elif c.isdigit() and NUMBER.match(line, p) and not SYMBOL.fullmatch(line[p:].split(" ")[0]):
                m = NUMBER.match(line, p)
                n, dots = int(m.group(1)), m.group(2)
                if depth == 0:
                    if dots == "." and number is not None and n != number + 1:
                        raise Broken(lineno, "move number %d. after %d" % (n, number))
                    if dots == "..." and number is not None and n != number:
                        raise Broken(lineno, "move number %d... where the move is %d" % (n, number))
                    if n < 1:
                        raise Broken(lineno, "move number %d" % n)
                    number = n
                p = m.end()
                if p < len(line) and line[p] != " ":
                    raise Broken(lineno, "no space after a move number indication")
                if p < len(line) and line[p:p + 2] == "  ":
                    raise Broken(lineno, "more than one space after a move number indication")
                need_number = False
            elif c.isalnum():
                m = SYMBOL.match(line, p)
                p = m.end()
                while p < len(line) and line[p] in "!?":
                    p += 1
                if p < len(line) and line[p] != " ":
                    raise Broken(lineno, "a move ends in %r" % line[p])
                if depth == 0 and need_number:
                    raise Broken(lineno, "move %s without a move number indication before it" % m.group(0))
            else:
                raise Broken(lineno, "a character %r no token begins with" % c)
        li += 1
    if depth:
        raise Broken(first + len(text), "a variation is never closed")
    if not done:
        raise Broken(first + len(text), "the movetext does not end with the result token")


def check_text(data):
    """Returns (games, [(line, why)])."""
    errors = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        text = data.decode("latin-1")
        if not all(ord(c) >= 0xA0 or ord(c) < 0x80 for c in text):
            return 0, [(1, "bytes of neither UTF-8 nor Latin-1: %s" % e)]
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if "\t" in line or "\r" in line:
            errors.append((n, "a tab or carriage return"))
        if len(line) > 255:
            errors.append((n, "a line of more than 255 characters"))
        if any(ord(c) < 32 for c in line.replace("\t", "").replace("\r", "")):
            errors.append((n, "a control character"))
    if errors:
        return 0, errors
    if text and not text.endswith("\n"):
        return 0, [(len(lines), "the last line has no line end")]
    games = 0
    i = 0
    while i < len(lines):
        if lines[i] == "":
            i += 1
            continue
        if not lines[i].startswith("["):
            errors.append((i + 1, "a game must begin with its tags"))
            break
        if games > 0 and lines[i - 1] != "":
            errors.append((i + 1, "no empty line before the game"))
        try:
            i = check_game(lines, i)
            games += 1
        except Broken as b:
            errors.append((b.line, b.why))
            # on to the next game: the next tag line after an empty line
            i = b.line
            while i < len(lines) and not (lines[i].startswith("[") and lines[i - 1] == ""):
                i += 1
    return games, errors


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    bad = False
    for path in argv[1:]:
        data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
        games, errors = check_text(data)
        for line, why in errors:
            print("%s:%d: %s" % (path, line, why))
        if errors or games == 0:
            bad = True
            if not errors:
                print("%s: no game" % path)
        else:
            print("%s: %d games" % (path, games))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
