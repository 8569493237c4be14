// The TypeScript types of the JSON documents the kernel hands the extension, generated from
// their JSON Schemas (workbench/display/schemas/*.schema.json, the one source of both sides)
// by json-schema-to-typescript. `jlpm build:types` writes src/generated/ (checked in) and every
// build runs it first, so the types the renderers compile against are the schemas' own;
// `--check` writes nothing and fails when a checked-in file differs. Each file's header holds
// the schemas' hash, which tests/display/test_json_schemas.py compares with the schemas.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { compile } = require('json-schema-to-typescript');
const { version } = require('json-schema-to-typescript/package.json');

const HERE = dirname(fileURLToPath(import.meta.url));
const SCHEMAS = resolve(HERE, '../../workbench/display/schemas');
const OUT = resolve(HERE, '../src/generated');
const SUFFIX = '.schema.json';

/** The hash of every schema file, in name order: `name NUL bytes NUL` each. */
function schemasHash(names) {
  const hash = createHash('sha256');
  for (const name of names) {
    hash.update(name);
    hash.update('\0');
    hash.update(readFileSync(join(SCHEMAS, name)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function banner(sources, hash) {
  return [
    '/**',
    ` * GENERATED, DO NOT EDIT: made from workbench/display/schemas/${sources} by`,
    ` * labextension/scripts/generate-types.mjs (json-schema-to-typescript ${version}).`,
    ' * Change the schemas, then run `jlpm build:types` (every build runs it).',
    ` * schemas-sha256: ${hash}`,
    ' */'
  ].join('\n');
}

const OPTIONS = {
  cwd: SCHEMAS,
  declareExternallyReferenced: true,
  additionalProperties: true,
  strictIndexSignatures: true,
  unknownAny: true,
  style: { singleQuote: true, printWidth: 100, trailingComma: 'none', arrowParens: 'avoid' }
};

async function main() {
  const names = readdirSync(SCHEMAS)
    .filter(name => name.endsWith(SUFFIX))
    .sort();
  const hash = schemasHash(names);
  const schemas = new Map(
    names.map(name => [name, JSON.parse(readFileSync(join(SCHEMAS, name), 'utf8'))])
  );
  // The mime bundles' documents share definitions (a browser snapshot holds a tool card and
  // a call's documents): one module declares each type once. Any other schema (the sidebar
  // comm's messages) is a module of its own.
  const documents = names.filter(name => schemas.get(name)['x-mime-type']);
  const outputs = new Map();
  outputs.set(
    'documents.ts',
    await compile(
      {
        title: 'Workbench document',
        description: 'Any document the kernel puts in a mime bundle for the extension.',
        anyOf: documents.map(name => ({ $ref: name }))
      },
      'documents',
      { ...OPTIONS, bannerComment: banner(`{${documents.join(',')}}`, hash) }
    )
  );
  for (const name of names.filter(name => !documents.includes(name))) {
    const module = `${name.slice(0, -SUFFIX.length)}.ts`;
    outputs.set(
      module,
      await compile(schemas.get(name), module, { ...OPTIONS, bannerComment: banner(name, hash) })
    );
  }

  const check = process.argv.includes('--check');
  const stale = [];
  mkdirSync(OUT, { recursive: true });
  const present = readdirSync(OUT).filter(name => name.endsWith('.ts'));
  for (const name of present.filter(name => !outputs.has(name))) {
    stale.push(`${name} (made from no schema: remove it)`);
  }
  for (const [name, text] of outputs) {
    const path = join(OUT, name);
    let old = null;
    try {
      old = readFileSync(path, 'utf8');
    } catch {
      old = null;
    }
    if (old === text) {
      continue;
    }
    if (check) {
      stale.push(name);
    } else {
      writeFileSync(path, text);
      process.stdout.write(`wrote src/generated/${name}\n`);
    }
  }
  if (stale.length) {
    process.stderr.write(`src/generated/ is stale: ${stale.join(', ')}; run \`jlpm build:types\`.\n`);
    process.exitCode = 1;
  }
}

await main();
