// node bench/top-functions.mjs <file.cpuprofile> [n]: self time by function and by package, from a V8 CPU profile.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const n = Number(process.argv[3] ?? 25);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fnTotals = new Map();
const pkgTotals = new Map();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id);
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '$1/')}:${f.lineNumber}`;
  fnTotals.set(key, (fnTotals.get(key) ?? 0) + us);
  const m = f.url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const pkg = m ? m[1] : f.url.includes('/dist/') ? '(service code)' : f.url ? '(node internals)' : f.functionName || '(vm)';
  pkgTotals.set(pkg, (pkgTotals.get(pkg) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log('by package:');
for (const [k, us] of [...pkgTotals].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(us), k);
console.log('\nby function:');
for (const [k, us] of [...fnTotals].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(us), k);
