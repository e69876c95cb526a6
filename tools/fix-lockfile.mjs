// The registry this project installs from serves only the linux-x64 builds of some native packages, so npm
// leaves the other platforms' optional bindings out of package-lock.json and `npm ci` then refuses the lock.
// This adds those entries back with their os/cpu, as npm would: run it after every `npm install`.
import fs from 'node:fs';
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (pkgs[key] || pkgs[`${path}/node_modules/${dep}`]) continue;
    const m = /binding-(android|darwin|freebsd|linux|openharmony|win32)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x)/.exec(dep);
    if (!m) { console.log('unknown', dep); continue; }
    pkgs[key] = { version: range, dev: meta.dev, optional: true, os: [m[1]], cpu: [m[2]] };
    added++;
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', added);
