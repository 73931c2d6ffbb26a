// tests/schema/lichess_types.mjs -- holds recorded Bot API traffic to
// lichess's own published contract, the TypeScript types of the npm package
// @lichess-org/types (generated from lichess's OpenAPI description, pinned
// exactly in package-lock.json). The invariant: every event-stream line and
// every JSON answer on a route lichess also has is assignable to lichess's
// type for it, with one loosening only -- a variant's key may be any word
// (Citadel's variants are not lichess's) -- and Citadel's own fields beside
// lichess's allowed. A bot written against lichess's types reads Citadel's
// answers without a cast.
//
//   node tests/schema/lichess_types.mjs [--ndjson FILE...] [--wire FILE...]
//
// --ndjson: stream lines as a bot read them, one JSON object a line (empty
//   lines skipped); each is checked against the event type its "type" names.
// --wire: one HTTP exchange a line, {"kind":"http","method","path","status",
//   "answer",...} (tests/integration/test_bot_api.sh writes them). The path
//   (query stripped) picks lichess's route: the template of `paths` that
//   matches, the one with the most literal segments if several do. An
//   exchange on a path or method lichess does not have is Citadel's own,
//   counted and not checked. The answer is checked against the JSON that
//   lichess declares for that status; an undeclared error status against
//   lichess's Error; a success status that lichess does not declare with
//   JSON is a failure.
//
// How: every value becomes `const vN = <JSON> as const;` and
// `const cN: Loose<Type> = vN;` in one generated TypeScript file, and the
// repo's tsc checks that file once (--strict, skipLibCheck, so the types'
// 437 KB declaration file is read, not checked). Assigning from a variable
// rather than a fresh literal is what allows extra properties while missing
// properties, wrong types and wrong literal words are errors. Each
// diagnostic's line leads back to its input file and line.
//
// Exit status: 0 all match; 1 failures, or nothing checked; 2 the check
// could not run (@lichess-org/types or typescript missing, a file unreadable).
// Time, on the project's 2-core machine: about 1.1 s for 300 values (200
// stream lines, 100 answers), about 0.9 s for a handful: most of it is tsc
// starting and reading the declaration file.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const typesDir = join(root, 'node_modules', '@lichess-org', 'types');
const typesFile = join(typesDir, 'lichess-api.d.ts');
const tscFile = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const SHOWN = 20; // failures printed in full; the rest are counted
const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

// the event-stream lines lichess sends, by their "type"
const EVENTS = {
  gameStart: 'GameStartEvent',
  gameFinish: 'GameFinishEvent',
  challenge: 'ChallengeEvent',
  challengeDeclined: 'ChallengeDeclinedEvent',
  challengeCanceled: 'ChallengeCanceledEvent',
  gameFull: 'GameFullEvent',
  gameState: 'GameStateEvent',
  chatLine: 'ChatLineEvent',
  opponentGone: 'OpponentGoneEvent',
};
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function die(msg) {
  console.error(`lichess_types: ${msg}`);
  process.exit(2);
}

// --- lichess's routes, read from the declaration file -----------------------
// routes: [{template, segs, literals, methods: {get: {200: TYPE, ...}}}],
// where TYPE is the TypeScript text of what lichess answers with that status
// as application/json, or null when it declares the status without JSON. A
// method lichess does not have (`get?: never`) is not in methods.
function readRoutes(ts) {
  const text = readFileSync(typesFile, 'utf8');
  const sf = ts.createSourceFile(typesFile, text, ts.ScriptTarget.ES2022, false);
  const name = (n) => (n && (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) ? n.text : null);
  const top = {};
  for (const st of sf.statements) if (ts.isInterfaceDeclaration(st)) top[st.name.text] = st;
  if (!top.paths || !top.operations) die(`${typesFile} has no paths or operations interface`);
  const members = (node) => {
    const out = {};
    const list = node && (node.members || (node.type && node.type.members));
    for (const m of list || []) if (ts.isPropertySignature(m) && name(m.name) !== null) out[name(m.name)] = m;
    return out;
  };
  const operations = members(top.operations);
  const routes = [];
  for (const [template, p] of Object.entries(members(top.paths))) {
    const methods = {};
    for (const [method, m] of Object.entries(members(p))) {
      if (!METHODS.includes(method) || !m.type || m.type.kind === ts.SyntaxKind.NeverKeyword) continue;
      let op = m; // operations["id"], or an operation written in place
      if (ts.isIndexedAccessTypeNode(m.type) && ts.isLiteralTypeNode(m.type.indexType)) {
        op = operations[m.type.indexType.literal.text];
        if (!op) die(`${template} ${method}: no operation ${m.type.indexType.getText(sf)}`);
      }
      const statuses = {};
      for (const [status, r] of Object.entries(members(members(op).responses))) {
        const json = members(members(r).content)['application/json'];
        statuses[status] = json ? json.type.getText(sf) : null;
      }
      methods[method] = statuses;
    }
    const segs = template.split('/').slice(1);
    const literals = segs.filter((s) => !/^\{[^}]*\}$/.test(s)).length;
    routes.push({ template, segs, literals, methods });
  }
  return routes;
}

// the lichess template a path matches: the most literal segments win, and
// among equals the one whose first differing segment is literal
function findRoute(routes, path) {
  const segs = path.split('/').slice(1);
  let best = null;
  for (const r of routes) {
    if (r.segs.length !== segs.length) continue;
    if (!r.segs.every((s, i) => (/^\{[^}]*\}$/.test(s) ? segs[i] !== '' : s === segs[i]))) continue;
    if (!best || r.literals > best.literals ||
        (r.literals === best.literals && moreLiteralFirst(r.segs, best.segs))) best = r;
  }
  return best;
}
function moreLiteralFirst(a, b) {
  for (let i = 0; i < a.length; i++) {
    const la = !a[i].startsWith('{'), lb = !b[i].startsWith('{');
    if (la !== lb) return la;
  }
  return false;
}

// "components["schemas"]["Ok"]" reads as "Ok"
const shortType = (t) => {
  const s = t.replace(/components\["schemas"\]\["([^"]+)"\]/g, '$1').replace(/\s+/g, ' ');
  return s.length > 100 ? `${s.slice(0, 97)}...` : s;
};

// --- the inputs ---------------------------------------------------------------
function parseArgs(argv) {
  const files = [];
  let kind = null;
  for (const a of argv) {
    if (a === '--ndjson' || a === '--wire') kind = a.slice(2);
    else if (a === '-h' || a === '--help') {
      console.log('usage: node tests/schema/lichess_types.mjs [--ndjson FILE...] [--wire FILE...]');
      process.exit(0);
    } else if (a.startsWith('--')) die(`unknown option ${a}`);
    else if (!kind) die(`${a}: say --ndjson or --wire before the files`);
    else files.push({ kind, file: a });
  }
  return files;
}

function readLines(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    die(`cannot read ${file}: ${e.message}`);
  }
  return text.split('\n').map((s, i) => ({ at: `${file}:${i + 1}`, text: s.trim() }))
    .filter((l) => l.text !== '');
}

function main() {
  const inputs = parseArgs(process.argv.slice(2));
  if (!existsSync(typesFile)) die('@lichess-org/types is not installed (npm ci, or bash tools/setup test)');
  if (!existsSync(tscFile)) die('typescript is not installed (npm ci, or bash tools/setup test)');
  const version = JSON.parse(readFileSync(join(typesDir, 'package.json'), 'utf8')).version;
  const ts = createRequire(import.meta.url)(join(root, 'node_modules', 'typescript'));
  const routes = readRoutes(ts);

  const checks = []; // {at, against, type, value}: for tsc
  const failures = []; // {at, against, why}: found before tsc
  let streamLines = 0, answers = 0, own = 0;
  for (const { kind, file } of inputs) {
    for (const { at, text } of readLines(file)) {
      let v;
      try {
        v = JSON.parse(text);
      } catch (e) {
        failures.push({ at, against: kind === 'ndjson' ? 'a stream line' : 'a wire line', why: `not JSON: ${e.message}` });
        continue;
      }
      if (kind === 'ndjson') {
        streamLines++;
        const type = v && typeof v === 'object' && !Array.isArray(v) ? v.type : undefined;
        const schema = typeof type === 'string' && Object.hasOwn(EVENTS, type) ? EVENTS[type] : null;
        if (!schema) {
          failures.push({ at, against: 'the event types', why: `${type === undefined ? 'no type' : `type ${JSON.stringify(type)}`}: not a line lichess's streams send` });
          continue;
        }
        checks.push({ at, against: schema, type: `components["schemas"]["${schema}"]`, value: v });
        continue;
      }
      if (!v || v.kind !== 'http' || !Object.hasOwn(v, 'answer')) continue;
      const method = String(v.method || '').toLowerCase();
      const path = String(v.path || '').replace(/[?#].*$/, '');
      const route = findRoute(routes, path);
      if (!route || !route.methods[method]) {
        own++;
        continue;
      }
      answers++;
      const status = Number(v.status);
      const where = `${method.toUpperCase()} ${route.template} ${status}`;
      const statuses = route.methods[method];
      if (Object.hasOwn(statuses, String(status)) && statuses[status] !== null) {
        const type = `paths[${JSON.stringify(route.template)}][${JSON.stringify(method)}]["responses"][${status}]["content"]["application/json"]`;
        checks.push({ at, against: `${where} ${shortType(statuses[status])}`, type, value: v.answer });
      } else if (status >= 400) {
        checks.push({ at, against: `${where} Error`, type: 'components["schemas"]["Error"]', value: v.answer });
      } else {
        const declared = Object.keys(statuses).map((s) => statuses[s] === null ? `${s} (not JSON)` : s).join(', ');
        failures.push({
          at, against: where,
          why: Object.hasOwn(statuses, String(status))
            ? `lichess answers ${status} here without JSON, Citadel with JSON`
            : `lichess does not answer ${status} here (it declares ${declared || 'no status'})`,
        });
      }
    }
  }
  if (streamLines + answers === 0) {
    console.error(`lichess_types: nothing to check (${count(own, 'answer')} on Citadel's own routes): ` +
      'give --ndjson stream lines or --wire exchanges on lichess routes');
    process.exit(1);
  }

  failures.push(...runTsc(checks));
  const order = (at) => { const i = at.lastIndexOf(':'); return [at.slice(0, i), Number(at.slice(i + 1))]; };
  const files = inputs.map((x) => x.file);
  failures.sort((a, b) => {
    const [fa, la] = order(a.at), [fb, lb] = order(b.at);
    return files.indexOf(fa) - files.indexOf(fb) || la - lb;
  });
  if (failures.length) {
    console.log(`lichess_types: ${failures.length} of ${count(streamLines + answers, 'value')} ` +
      `(${count(streamLines, 'stream line')}, ${count(answers, 'answer')}) do not match @lichess-org/types ${version}:`);
    for (const f of failures.slice(0, SHOWN)) {
      console.log(`${f.at}: against ${f.against}:`);
      for (const l of f.why.split('\n')) console.log(`    ${l}`);
    }
    if (failures.length > SHOWN) console.log(`... and ${failures.length - SHOWN} more`);
    process.exit(1);
  }
  console.log(`lichess_types: ${count(streamLines, 'stream line')} and ${count(answers, 'answer')} match ` +
    `@lichess-org/types ${version} (${count(own, 'answer')} on Citadel's own routes not checked)`);
}

// --- the check ----------------------------------------------------------------
// Loose<T>: T deeply readonly (an `as const` value has readonly arrays and
// tuples), with lichess's Variant, whose key is lichess's closed list of
// variants, opened to any key. Nothing else changes. The conditional types
// distribute over unions; `any` stays any.
const PRELUDE = `import type { components, paths } from "@lichess-org/types";
type Variant = components["schemas"]["Variant"];
type OpenVariant = { readonly key: string; readonly name: string; readonly short?: string };
type Loose<T> =
  0 extends 1 & T ? T :
  T extends Variant ? (Variant extends T ? OpenVariant : { readonly [K in keyof T]: Loose<T[K]> }) :
  T extends object ? { readonly [K in keyof T]: Loose<T[K]> } : T;
`;

function runTsc(checks) {
  if (!checks.length) return [];
  const lines = PRELUDE.split('\n');
  lines.pop();
  const byLine = new Map(); // line number (1-based) -> check
  const aliases = new Map(); // type text -> alias name (shorter messages)
  for (const c of checks) {
    if (!aliases.has(c.type)) {
      const n = `T${aliases.size}`;
      aliases.set(c.type, n);
      lines.push(`type ${n} = ${c.type};`);
    }
  }
  checks.forEach((c, i) => {
    // JSON null takes no `as const`, and needs none: its type is null. JSON
    // leaves U+2028 and U+2029 bare, and tsc counts them as line ends.
    const json = JSON.stringify(c.value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    lines.push(c.value === null ? `const v${i} = null;` : `const v${i} = ${json} as const;`);
    byLine.set(lines.length, c);
    lines.push(`const c${i}: Loose<${aliases.get(c.type)}> = v${i};`);
    byLine.set(lines.length, c);
  });
  lines.push('');

  const dir = mkdtempSync(join(tmpdir(), 'lichess-types-'));
  let r;
  try {
    writeFileSync(join(dir, 'check.ts'), lines.join('\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'ES2022', moduleResolution: 'Bundler', lib: ['ES2022'],
        strict: true, noEmit: true, skipLibCheck: true, types: [],
        paths: { '@lichess-org/types': [typesFile] },
      },
      files: ['check.ts'],
    }));
    r = spawnSync(process.execPath, [tscFile, '--noEmit', '--strict', '--pretty', 'false', '-p', join(dir, 'tsconfig.json')],
      { encoding: 'utf8', maxBuffer: 256 << 20 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (r.error) die(`tsc did not run: ${r.error.message}`);
  const out = (r.stdout || '') + (r.stderr || '');
  if (r.status === 0) return [];
  // "check.ts(LINE,COL): error TSnnnn: message" and indented lines under it
  const found = new Map(); // check -> [message as lines]
  let current = null;
  const stray = [];
  for (const l of out.split('\n')) {
    const m = /^(.*)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(l);
    const c = m && m[1].endsWith('check.ts') ? byLine.get(Number(m[2])) : undefined;
    if (c) {
      current = [m[5]];
      if (!found.has(c)) found.set(c, []);
      found.get(c).push(current);
    } else if (m) {
      stray.push(l);
      current = null;
    } else if (l.trim() !== '') {
      if (current) current.push(l.replace(/^ {2}/, ''));
      else stray.push(l);
    }
  }
  if (stray.length || !found.size) die(`tsc failed outside the checked values:\n${(stray.length ? stray : [out]).join('\n')}`);
  const failures = [];
  for (const [c, msgs] of found) failures.push({ at: c.at, against: c.against, why: msgs.map(readable).join('\n') });
  return failures;
}

// One tsc message made readable: an opening "Type '{...}' is not
// assignable to type '{...}'" says nothing the lines under it do not; the
// properties missing are named without the two types spelled out; and any
// other type longer than 160 characters is cut short.
function readable(msg) {
  let lines = msg.map((l) => l
    .replace(/^(\s*Property '[^']+' is missing) in type '.*' but required in type '.*'\.$/, '$1.')
    .replace(/^(\s*)Type '.*' is missing the following properties from type '.*': (.*)$/, '$1Properties missing: $2'));
  if (lines.length > 1 && /^Type '.*' is not assignable to type '.*'\.$/.test(lines[0])) {
    lines = lines.slice(1);
    const indent = /^\s*/.exec(lines[0])[0].length;
    lines = lines.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)[0].length)));
  }
  return lines.map((l) => l.replace(/'((?:[^'\\]|\\.)*)'/g, (all, t) => (t.length > 160 ? `'${t.slice(0, 157)}...'` : all)))
    .join('\n');
}

main();
