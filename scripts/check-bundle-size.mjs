// Adds up the gzip size of the JavaScript each route loads on arrival, from dist/.vite/chunks.json
// (written by the chunk report plugin in vite.config.ts), and checks the budgets of issue 7:
// login ≤ 100 KB, employee board ≤ 185 KB (170 KB until the follow-ups, batched sync and phone
// board landed together: 178.5 KB, see docs/board.md), the chart library only in a lazy chunk.
// Prints always; with --enforce it exits 1 when a budget is broken (CI), so `npm start` never fails on it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve('dist');
const chunks = JSON.parse(fs.readFileSync(path.join(dist, '.vite/chunks.json'), 'utf8'));
const enforce = process.argv.includes('--enforce');
const KB = 1024;

const gzip = new Map();
const gz = (file) => {
  // A chunk holding only CSS is listed by the chunk report but never written (vite drops its
  // empty JS): it costs no JavaScript.
  if (!gzip.has(file)) {
    const full = path.join(dist, file);
    gzip.set(file, fs.existsSync(full) ? zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length : 0);
  }
  return gzip.get(file);
};

// `stopAt`: chunks whose lazy imports are other routes (the shell's router), not this route's.
function closure(starts, { dynamic, stopAt = new Set() }) {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file) || !chunks[file]) continue;
    seen.add(file);
    const follow = dynamic && !stopAt.has(file);
    stack.push(...chunks[file].imports, ...(follow ? chunks[file].dynamicImports : []));
  }
  return seen;
}

const chunkOf = (module) => {
  const found = Object.keys(chunks).find((f) => chunks[f].modules.includes(module));
  if (!found) throw new Error(`no chunk holds ${module}`);
  return found;
};
const entry = Object.keys(chunks).filter((f) => chunks[f].isEntry);
// The service worker's registration and reload prompt are lazy but load on every page at start.
const entryStatic = closure(entry, { dynamic: false });
const shell = new Set([
  ...entryStatic,
  ...closure([chunkOf('src/components/ui/reload-prompt.tsx')], { dynamic: true, stopAt: entryStatic }),
]);
/**
 * What a route loads on arrival: the shell plus the modules its screen renders at once (lazy ones
 * included, e.g. the board screen under its Suspense) and their static imports. Lazy parts behind
 * a tap (the board's dialogs) are "on demand": printed apart, not loaded until used.
 */
const arrival = (...modules) => new Set([...shell, ...closure(modules.map(chunkOf), { dynamic: false })]);
/** Everything the route's modules can ever pull in, following their lazy imports too. */
const everything = (...modules) =>
  new Set([...shell, ...closure(modules.map(chunkOf), { dynamic: true, stopAt: shell })]);
const size = (files) => [...files].reduce((sum, f) => sum + gz(f), 0);
const holdsNivo = (files) => [...files].filter((f) => chunks[f].modules.some((m) => m.includes('@nivo')));

const boardModules = [
  'src/app/layouts/signed-in-layout.tsx',
  'src/features/board/components/employee-board.tsx',
  'src/features/board/components/board-screen.tsx',
];
const dashboardModules = [
  'src/app/layouts/signed-in-layout.tsx',
  'src/features/dashboard/components/admin-dashboard.tsx',
];
const routes = [
  { name: 'login (/)', files: shell, all: shell, budget: 100 * KB },
  {
    name: 'employee board (/employee)',
    files: arrival(...boardModules),
    all: everything(...boardModules),
    budget: 185 * KB,
  },
  {
    name: 'admin dashboard (/dashboard)',
    files: arrival(...dashboardModules, 'src/features/dashboard/components/lead-charts.tsx'),
    all: everything(...dashboardModules),
  },
];

const failures = [];
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
console.log('\nJavaScript each route loads on arrival (gzip), and what loads later on demand:');
for (const r of routes) {
  const bytes = size(r.files);
  const later = size([...r.all].filter((f) => !r.files.has(f)));
  const verdict = r.budget
    ? bytes <= r.budget
      ? `within ${r.budget / KB} KB`
      : `OVER ${r.budget / KB} KB`
    : 'no budget';
  const onDemand = later > 0 ? `  (+${kb(later)} on demand)` : '';
  console.log(`  ${r.name.padEnd(30)} ${kb(bytes).padStart(9)}  ${verdict}${onDemand}`);
  if (r.budget && bytes > r.budget) failures.push(`${r.name} loads ${kb(bytes)}`);
}

const dashboardStatic = closure(dashboardModules.map(chunkOf), { dynamic: false });
const nivoChunks = holdsNivo(new Set(Object.keys(chunks)));
for (const [name, files] of [
  ['login', routes[0].files],
  ['employee board', routes[1].all],
  ['dashboard before its charts load', new Set([...shell, ...dashboardStatic])],
]) {
  const leaked = holdsNivo(files);
  if (leaked.length)
    failures.push(`the chart library (@nivo) is in the ${name} bundle: ${leaked.join(', ')}`);
}
console.log(`  chart library chunks (lazy):   ${nivoChunks.join(', ') || 'none found'}`);
if (nivoChunks.length === 0) failures.push('no chunk holds @nivo: the chunk report is wrong');

if (failures.length) {
  console.log(`\nBundle budget ${enforce ? 'FAILED' : 'warnings'}:\n  ${failures.join('\n  ')}`);
  if (enforce) process.exit(1);
} else {
  console.log('  all budgets met');
}
