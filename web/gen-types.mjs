// web/gen-types.mjs -- writes web/src/gen/api.ts, the page's TypeScript types
// for every message and answer of docs/api.schema.json, with
// json-schema-to-typescript (pinned in package-lock.json). The file is
// generated, never edited and not kept in git: `node web/gen-types.mjs`
// runs before the type check and inside web/build.mjs, so the types are
// always the schema's.
import { compile } from 'json-schema-to-typescript';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

export async function genTypes() {
  const schema = JSON.parse(readFileSync(join(root, '..', 'docs', 'api.schema.json'), 'utf8'));
  // the generator names a type by its title; the root itself is no type
  const input = { ...schema, title: 'CitadelApi', type: 'object', properties: {}, additionalProperties: false };
  let ts = await compile(input, 'CitadelApi', {
    bannerComment: '// Generated from docs/api.schema.json by web/gen-types.mjs: do not edit.',
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: false,
    maxItems: -1,
  });
  ts = ts.replace(/export interface CitadelApi \{\}\n?/, '');
  mkdirSync(join(root, 'src', 'gen'), { recursive: true });
  writeFileSync(join(root, 'src', 'gen', 'api.ts'), ts);
}

if (import.meta.url === `file://${process.argv[1]}`) await genTypes();
