// `npm run bench`: every `bench:*` script of package.json, one after the other, each in its own
// process with its defaults, then which of them failed. For one benchmark or other arguments, run
// its own script (`npm run bench:import -- --rows 1000000`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const scripts = Object.keys(
  (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts,
).filter((name) => name.startsWith('bench:'));
// The API benchmarks first, the browser ones (which build the app) last.
const order = ['bench:api', 'bench:load', 'bench:import', 'bench:web', 'bench:lighthouse'];
scripts.sort(
  (a, b) => (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1),
);

const failed: string[] = [];
for (const script of scripts) {
  console.log(`\n=== npm run ${script} ===`);
  const started = performance.now();
  const { status } = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  console.log(
    `=== ${script}: ${status === 0 ? 'done' : `FAILED (exit ${status})`} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (status !== 0) failed.push(script);
}
console.log(
  `\n${scripts.length - failed.length} of ${scripts.length} benchmarks ran${failed.length ? `; failed: ${failed.join(', ')}` : ''}.`,
);
process.exitCode = failed.length ? 1 : 0;
