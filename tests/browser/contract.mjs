// tests/browser/contract.mjs -- the browser tests' side of the contract:
// every WebSocket message the page sends or receives (through the page's
// hook in web/src/ws.ts) and every JSON answer of /api/ it reads is
// validated against docs/api.schema.json with Ajv (pinned in
// package-lock.json). A message that breaks the schema fails the test it
// came in, naming the message; tests/schema/check_wire.py does the same for
// the server tests' C client.

import Ajv2020 from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function contract(root) {
  const schema = JSON.parse(readFileSync(join(root, 'docs', 'api.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema(schema, 'api');
  const v = (name) => ajv.getSchema(`api#/$defs/${name}`);
  const branch = {};
  for (const union of ['ClientMessage', 'ServerMessage']) {
    branch[union] = {};
    for (const ref of schema.$defs[union].oneOf) {
      const name = ref.$ref.split('/').pop();
      branch[union][schema.$defs[name].properties.type.const] = v(name);
    }
  }
  const routes = schema['x-routes'].map((r) => ({ ...r, rx: new RegExp(r.path) }));
  const transport = schema['x-transport-errors'].statuses;
  const why = (fn) => fn.errors.map((e) => `${e.instancePath || '(top)'} ${e.message}` +
    (e.params && e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : '')).join('; ');

  /** The problem with a WebSocket text, or null; kind 'recv' or 'send'. */
  function message(kind, text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return `${kind}: not JSON: ${text.slice(0, 80)}`;
    }
    const union = kind === 'recv' ? 'ServerMessage' : 'ClientMessage';
    const fn = msg && typeof msg === 'object' ? branch[union][msg.type] : null;
    if (!fn) return `${kind}: no ${union} has type ${JSON.stringify(msg && msg.type)}`;
    return fn(msg) ? null : `${kind} ${msg.type}: ${why(fn)}: ${text.slice(0, 160)}`;
  }

  /** The problem with an HTTP answer the page read, or null. */
  function answer(method, path, status, contentType, body) {
    const r = routes.find((x) => x.method === method && x.rx.test(path));
    const json = (contentType || '').startsWith('application/json');
    if (status >= 400) {
      if (!json) return transport.includes(status) ? null : `${method} ${path} ${status}: not JSON`;
      const fn = v('ErrorAnswer');
      return fn(body) ? null : `${method} ${path} ${status}: ${why(fn)}`;
    }
    if (status < 200 || status >= 300) return null;
    if (!r) return `${method} ${path}: answered ${status}, but the schema has no such route`;
    if (r.stream) return (contentType || '').includes('x-ndjson') ? null : `${method} ${path}: a stream sent as ${contentType}`;
    if (r.answer === 'text') return json ? `${method} ${path}: the schema says text` : null;
    if (!json) return `${method} ${path}: the answer is not JSON`;
    const fn = v(r.answer);
    return fn(body) ? null : `${method} ${path}: ${why(fn)}`;
  }

  return { message, answer };
}
