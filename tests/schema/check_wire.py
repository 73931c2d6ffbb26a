#!/usr/bin/env python3
"""check_wire.py -- validates a wire log against docs/api.schema.json.

    python3 tests/schema/check_wire.py LOG [LOG...]
    python3 tests/schema/check_wire.py --ndjson LINES [LINES...]

Each line of a log is one exchange the tests saw (tests/server/wirelog.c,
or the browser tests' hook on the page's socket, tests/browser/lib.mjs):
  {"kind": "ws-recv", "msg": ...}     a message from the server: ServerMessage
  {"kind": "ws-send", "msg": ...}     a request to the server: ClientMessage
  {"kind": "http", "method", "path", "status", "request"?, "answer", ...}
HTTP answers are checked against the route's schema (the schema's
x-routes) when 2xx, against ErrorAnswer otherwise; a request body against
its route's request schema when the server accepted it (2xx: hostile
tests send bad bodies on purpose, and those must be refused); the HTTP
layer's own refusals (x-transport-errors) are HTML. A 2xx answer
on a route the schema does not list is an error. Prints one line per
kind of failure (with its first example) and a count; exit status 1 if any.
"""
import json
import re
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "api.schema.json").read_text())
Draft202012Validator.check_schema(SCHEMA)


def validator(name):
    sub = {"$ref": "#/$defs/" + name, "$defs": SCHEMA["$defs"]}
    return Draft202012Validator(sub)


V = {name: validator(name) for name in SCHEMA["$defs"]}
ROUTES = [(r["method"], re.compile(r["path"]), r.get("request"), "stream" if r.get("stream") else r["answer"])
          for r in SCHEMA["x-routes"]]
GAME_LINES = {SCHEMA["$defs"][ref["$ref"].split("/")[-1]]["properties"]["type"]["const"]
              for ref in SCHEMA["$defs"]["BotGameLine"]["oneOf"]}


def errors_of(name, value):
    """The validation errors, most specific first, as short strings."""
    v = V[name]
    out = []
    for e in sorted(v.iter_errors(value), key=lambda e: -len(list(e.absolute_path))):
        best = e
        if e.context:  # oneOf: the branch whose type matches says most
            typed = [c for c in e.context
                     if isinstance(value, dict) and "type" in value
                     and list(c.absolute_schema_path)[:1] == list(c.absolute_schema_path)[:1]]
            best = min(typed or e.context, key=lambda c: len(list(c.absolute_schema_path)))
        where = "/".join(str(p) for p in best.absolute_path) or "(top)"
        out.append(f"{where}: {best.message[:200]}")
    return out


def message_errors(name, msg):
    """A ws message against ClientMessage/ServerMessage, picking the branch
    by its type so that the error says what is wrong with that message."""
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return [f"(top): not an object with a type: {json.dumps(msg)[:120]}"]
    for ref in SCHEMA["$defs"][name]["oneOf"]:
        branch = ref["$ref"].split("/")[-1]
        if SCHEMA["$defs"][branch]["properties"]["type"].get("const") == msg["type"]:
            return [f"{msg['type']}: {e}" for e in errors_of(branch, msg)]
    return [f"(top): no {name} has type '{msg['type']}'"]


def check_line(line):
    kind = line.get("kind")
    if kind == "ws-recv":
        return message_errors("ServerMessage", line["msg"])
    if kind == "ws-send":
        return message_errors("ClientMessage", line["msg"])
    if kind != "http":
        return [f"unknown kind {kind!r}"]
    method, status = line["method"], line["status"]
    path = line["path"].split("?")[0]
    route = next(((req, ans) for m, rx, req, ans in ROUTES if m == method and rx.search(path)), None)
    errs = []
    if 200 <= status < 300:
        if route is None:
            return [f"{method} {path}: answered {status}, but the schema has no such route"]
        req, ans = route
        if ans == "stream":
            if "x-ndjson" not in (line.get("content_type") or "application/x-ndjson"):
                errs.append(f"{method} {path}: a stream, but sent as {line.get('content_type')}")
        elif ans == "text":
            if line.get("answer_is_json"):
                errs.append(f"{method} {path}: the schema says text, the answer is JSON")
        elif not line.get("answer_is_json"):
            errs.append(f"{method} {path}: the answer is not JSON ({line.get('content_type')})")
        else:
            errs += [f"{method} {path} answer: {e}" for e in errors_of(ans, line["answer"])]
        if req and "request" in line:
            errs += [f"{method} {path} request: {e}" for e in errors_of(req, line["request"])]
    elif status >= 400 and line.get("answer_is_json"):
        errs += [f"{method} {path} {status}: {e}" for e in errors_of("ErrorAnswer", line["answer"])]
    elif status >= 400 and path.startswith("/api/") \
            and status not in SCHEMA["x-transport-errors"]["statuses"]:
        errs.append(f"{method} {path} {status}: an error answer that is not JSON")
    return errs


def check_stream_line(line):
    if not isinstance(line, dict) or not isinstance(line.get("type"), str):
        return [f"(top): not an object with a type: {json.dumps(line)[:120]}"]
    return message_errors("BotGameLine" if line["type"] in GAME_LINES else "BotEvent", line)


def main(paths):
    seen, failures = 0, {}
    ndjson = paths[:1] == ["--ndjson"]
    if ndjson:
        paths = paths[1:]
    for p in paths:
        for n, text in enumerate(Path(p).read_text().splitlines(), 1):
            if not text.strip():
                continue
            line = json.loads(text)
            seen += 1
            for e in (check_stream_line(line) if ndjson else check_line(line)):
                key = re.sub(r"\d+", "N", e)
                failures.setdefault(key, (e, line.get("test", "?"), f"{p}:{n}", 0))
                e0, t, where, k = failures[key]
                failures[key] = (e0, t, where, k + 1)
    for e, t, where, k in failures.values():
        print(f"FAIL schema: {e} ({k} times; first in {t}, {where})")
    total = sum(f[3] for f in failures.values())
    print(f"schema: {seen} messages checked, {total} not as docs/api.schema.json says")
    return 1 if failures or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
