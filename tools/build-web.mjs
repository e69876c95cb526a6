// Builds the web client (web/ → web/dist) when its sources changed since the last build, and prints
// the gzipped JavaScript each route loads. A warm start finds the stamp equal and does nothing.
//   node tools/build-web.mjs [--force]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const WEB = 'web';
const OUT = join(WEB, 'dist');
const STAMP = join(OUT, '.source-hash');
/** The sign-in route's budget: every JavaScript file it loads, gzipped (issue 15). */
const SIGNIN_BUDGET = 250 * 1024;
const SIGNIN_PAGE = 'src/pages/signin/SignInPage.tsx';

function sourceHash() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (path === OUT || entry.name === 'node_modules') continue;
      if (entry.isDirectory()) walk(path);
      else hash.update(relative('.', path)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  walk(WEB);
  // a changed dependency changes the bundle too
  hash.update(readFileSync('package-lock.json'));
  return hash.digest('hex');
}

const bin = (name) => join('node_modules', '.bin', name);
const hash = sourceHash();
if (!process.argv.includes('--force') && existsSync(join(OUT, 'index.html')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) {
  process.exit(0);
}

const started = Date.now();
execFileSync(bin('tsc'), ['-p', join(WEB, 'tsconfig.json')], { stdio: 'inherit' });
execFileSync(bin('vite'), ['build', '--config', join(WEB, 'vite.config.ts'), '--logLevel', 'warn'], { stdio: 'inherit' });

const manifest = JSON.parse(readFileSync(join(OUT, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(OUT, file))).length;
/** The JavaScript files a manifest entry loads before it runs: itself and its static imports. */
const closure = (key, seen = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const entry = closure(entryKey);
console.log(`web client built in ${((Date.now() - started) / 1000).toFixed(1)} s (${OUT}); gzipped JavaScript per route:`);
for (const key of Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry).sort()) {
  const files = closure(key, new Set(entry));
  const total = [...files].reduce((sum, file) => sum + gz(file), 0);
  console.log(`  ${key.replace(/^src\/pages\//, '').padEnd(44)} ${kb(total).padStart(10)}`);
}
const signin = [...closure(SIGNIN_PAGE, new Set(entry))].reduce((sum, file) => sum + gz(file), 0);
console.log(`  sign-in route total: ${kb(signin)} (budget ${kb(SIGNIN_BUDGET)})`);
if (signin > SIGNIN_BUDGET) {
  console.error(`the sign-in route loads ${kb(signin)} of gzipped JavaScript, over the ${kb(SIGNIN_BUDGET)} budget`);
  process.exit(1);
}
writeFileSync(STAMP, hash);
