// Copies the MCP Apps SDK's self-contained browser module (@modelcontextprotocol/ext-apps'
// `app-with-deps` build: the App class with its dependencies, one ES module) next to the built
// extension, where `%%app` inlines it into notebook-built Apps: no CDN, no network at run time.
// Never committed: it comes from the npm package at each build.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'package.json'));
let source;
try {
  source = require.resolve('@modelcontextprotocol/ext-apps/app-with-deps');
} catch {
  // Not installed: notebook-built Apps then say, in one line, that the SDK is not bundled.
  process.stderr.write('app-sdk: @modelcontextprotocol/ext-apps is not installed; nothing copied.\n');
  process.exit(0);
}
const target = join(here, '..', '..', 'workbench', 'labextension', 'app-sdk');
mkdirSync(target, { recursive: true });
copyFileSync(source, join(target, 'app-with-deps.js'));
const kb = Math.round(statSync(source).size / 1024);
process.stdout.write(`app-sdk: copied ${kb} kB to workbench/labextension/app-sdk/app-with-deps.js\n`);
