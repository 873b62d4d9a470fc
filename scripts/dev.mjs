// `npm run dev`: the fast loop. The API under `tsx watch` (restarts on every server change) and
// Vite's dev server for the PWA (hot reload, /api proxied to the API on PORT, default 8093).
// Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

// Vite's own script run by this Node (not through npx, which does not pass SIGTERM on).
const vite = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vite/package.json')),
  'bin/vite.js',
);

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], { stdio: 'inherit' }),
  spawn(process.execPath, [vite], { stdio: 'inherit' }),
];
let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
