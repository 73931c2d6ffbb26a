#!/usr/bin/env python3
"""check_docs.py -- docs/api.md and docs/api.schema.json say the same.

    python3 tests/schema/check_docs.py

For every WebSocket message of the schema: docs/api.md has it (a row of a
table whose first cell is `type`: "Client to server", and Stratego's setup
phase), or an item of the
"Server to client" list that begins with `type`), and names each of its
fields (every property but type and ref) in that row or item. Every type
the two lists of docs/api.md name is in the schema. Every HTTP route of
the schema (x-routes) is in the docs' tables (docs/api.md, or
docs/bot-api.md for the Bot API). Every line of the Bot API's streams
(BotEvent, BotGameLine) is named in docs/bot-api.md by its type in
backquotes, with each of its fields, and so is each field of a Challenge.
Prints "FAIL docs: ..." per
disagreement; exit status 1 if any.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "api.schema.json").read_text())
DOC = (ROOT / "docs" / "api.md").read_text()
BOTDOC = (ROOT / "docs" / "bot-api.md").read_text()
DEFS = SCHEMA["$defs"]


def section(title):
    m = re.search(r"^### " + re.escape(title) + r"\n(.*?)(?=^##)", DOC, re.S | re.M)
    return m.group(1) if m else ""


def messages(union):
    out = {}
    for ref in DEFS[union]["oneOf"]:
        d = DEFS[ref["$ref"].split("/")[-1]]
        out[d["properties"]["type"]["const"]] = [p for p in d["properties"] if p not in ("type", "ref")]
    return out


fails = []
client_doc = {}
for line in DOC.splitlines():  # the table of /ws requests, and the setup phase's
    m = re.match(r"\|\s*`([a-z_]+)`\s*\|(.*)", line)
    if m:
        client_doc[m.group(1)] = m.group(2)
server_doc = {}
for item in re.split(r"\n(?=- )", section("Server to client")):
    for m in re.finditer(r"`([a-z_]+) ?\{", item.split(":")[0] if item.startswith("- `") else ""):
        server_doc[m.group(1)] = item
    m = re.match(r"- `([a-z_]+)`", item)
    if m:
        server_doc.setdefault(m.group(1), item)

for name, doc, union in (("client", client_doc, "ClientMessage"), ("server", server_doc, "ServerMessage")):
    want = messages(union)
    for t, fields in want.items():
        if t not in doc:
            fails.append(f"the {name} message '{t}' is in the schema, not in docs/api.md")
            continue
        for f in fields:
            if not re.search(r"\b" + re.escape(f) + r"\b", doc[t]):
                fails.append(f"docs/api.md does not name the field '{f}' of the {name} message '{t}'")
    for t in doc:
        if t not in want:
            fails.append(f"docs/api.md lists the {name} message '{t}', which the schema does not have")

for r in SCHEMA["x-routes"]:
    # the route's fixed part: ^/api/games/[0-9]+/record$ -> /api/games/, /record
    parts = [p for p in re.split(r"\[[^\]]*\][+*]?|\([^)]*\)|\^|\$", r["path"]) if p.strip("/")]
    if not all(p in DOC for p in parts) and not all(p in BOTDOC for p in parts):
        fails.append(f"the route {r['method']} {r['path']} is in the schema, not in docs/api.md or docs/bot-api.md")

# the Bot API's stream lines, and its Challenge, in docs/bot-api.md
bot_lines = {**messages("BotEvent"), **messages("BotGameLine")}
for t, fields in bot_lines.items():
    if f'"type": "{t}"' not in BOTDOC:
        fails.append(f"the stream line '{t}' is in the schema, not in docs/bot-api.md")
for what, fields in [(f"'{t}'", f) for t, f in bot_lines.items()] + [("Challenge", list(DEFS["Challenge"]["properties"]))]:
    for f in fields:
        if not re.search(r"`\"?" + re.escape(f) + r"\"?`|\"" + re.escape(f) + r"\"", BOTDOC):
            fails.append(f"docs/bot-api.md does not name the field '{f}' of {what}")
for t in re.findall(r'"type": "([A-Za-z]+)"', BOTDOC):
    if t not in bot_lines:
        fails.append(f"docs/bot-api.md names the stream line '{t}', which the schema does not have")

for f in fails:
    print("FAIL docs:", f)
print(f"docs: {len(messages('ClientMessage'))} client and {len(messages('ServerMessage'))} server "
      f"messages, {len(bot_lines)} Bot API stream lines, {len(SCHEMA['x-routes'])} routes; "
      f"{len(fails)} disagreements")
sys.exit(1 if fails else 0)
