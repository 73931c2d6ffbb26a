#!/usr/bin/env python3
"""check_quotas.py -- every route that writes has a quota.

Walks docs/api.schema.json's x-routes (every HTTP route of the server, as
check_wire.py and check_docs.py hold it) and fails if a route that may
write (every POST and DELETE, and a GET that makes something, such as a
guest) does not name its quotas in "x-quota", or names one that is not in
the one table of limits (src/server/core/config.c, `--limit NAME=N`), or
one that no code uses. Beside a route's own quotas, every writing route is
under the ceiling that api.c's writes_take() counts per account and per
address (writes-per-minute, address-writes-per-minute), except the Bot
API's token routes, which api-requests counts per token; this checks that
the routes named so are exactly the ones writes_take() leaves out. A POST
that computes and writes nothing (POST /api/position) is answered before
the ceiling is counted and names only its own quota.

So a new route without a quota fails here until it names one.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs/api.schema.json").read_text())
CONFIG = (ROOT / "src/server/core/config.c").read_text()
API = (ROOT / "src/server/api.c").read_text()
CEILING = ["writes-per-minute", "address-writes-per-minute"]
TOKEN = ["api-requests"]

limits = dict((name, enum) for enum, name in
              re.findall(r'\[(LIM_\w+)\]\s*=\s*\{\s*"([^"]+)"', CONFIG))
used = set()
for f in (ROOT / "src/server").rglob("*.c"):
    if f.name != "config.c":
        used.update(re.findall(r"\bLIM_\w+\b", f.read_text()))

m = re.search(r"static int writes_take\(.*?\n\}", API, re.S)
exempt = re.findall(r'strncmp\(path, "([^"]+)", \d+\)', m.group(0)) if m else []
# the POST routes api_http() answers before it counts writes: they compute
# and write nothing (POST /api/position), each with a quota of its own
m = re.search(r"void api_http\(.*?writes_take\(s, h", API, re.S)
computing = ["/api" + p for p in
             re.findall(r'post && strcmp\(path, "([^"]+)"\) == 0\) \{', m.group(0))] if m else []



def spelled(path):
    """The ways a route's path regex can begin: its alternations spelled
    out ("^/api/(bot|board)/seek$": /api/bot/seek, /api/board/seek)."""
    path = path.strip("^$")
    m = re.search(r"\(([^()]*)\)", path)
    if not m:
        return [path]
    return [w for alt in m.group(1).split("|")
            for w in spelled(path[:m.start()] + alt + path[m.end():])]


problems = []
writing = 0
for r in SCHEMA["x-routes"]:
    where = f'{r["method"]} {r["path"]}'
    q = r.get("x-quota")
    if r["method"] == "GET" and q is None:
        continue
    writing += 1
    if not isinstance(q, list) or not q:
        problems.append(f"{where}: no quota named (x-quota)")
        continue
    for name in q:
        if name not in limits:
            problems.append(f"{where}: {name} is not a limit of config.c")
        elif limits[name] not in used:
            problems.append(f"{where}: {name} ({limits[name]}) is used by no code")
    if r["method"] == "GET":
        continue
    if r["path"].strip("^$") in computing:
        if any(n in q for n in CEILING + TOKEN):
            problems.append(f"{where}: api_http() answers it before writes_take(), "
                            "so it is under no ceiling its x-quota may name")
        continue
    token_route = all(any(a.startswith("/api" + p) for p in exempt)
                      for a in spelled(r["path"]))
    if token_route:
        if not all(n in q for n in TOKEN):
            problems.append(f"{where}: writes_take() leaves it to api-requests, "
                            "which its x-quota does not name")
    elif not all(n in q for n in CEILING):
        problems.append(f"{where}: under writes_take()'s ceiling, which its x-quota "
                        "does not name")

if not exempt:
    problems.append("src/server/api.c: writes_take() not found")
for p in problems:
    print(p)
print(f"quotas: {writing} routes that write, {len(limits)} limits; "
      f"{len(problems)} problems")
sys.exit(1 if problems else 0)
