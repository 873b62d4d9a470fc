// `npm run build:server`: the API compiled to plain JavaScript in dist-server/, so `npm start`
// runs it on Node alone instead of compiling TypeScript with tsx at every start. Packages from
// node_modules stay external (better-sqlite3 and argon2 are native; npm ci installs them all).
// The two worker threads are started by path from beside the bundle (import.meta.dirname):
//   - dist-server/worker-entry.mjs   the import's parse worker, bundled on its own (no tsx)
//   - dist-server/checkpoint.worker.mjs  the SQLite checkpoint thread, copied as is
// Migrations are imported statically by server/db/migrate.ts, so they are in the bundle.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'dist-server');
fs.rmSync(out, { recursive: true, force: true });

const require = createRequire(path.join(root, 'package.json'));

/**
 * A deep import into a CommonJS package without an "exports" map (`nodemailer/lib/smtp-transport`)
 * works under tsx but not in Node's ESM loader, which wants the file itself: name it.
 */
const deepImports = {
  name: 'deep-imports',
  setup(b) {
    b.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/.+/ }, (args) => {
      if (args.path.startsWith('node:')) return undefined;
      const name = args.path
        .split('/')
        .slice(0, args.path.startsWith('@') ? 2 : 1)
        .join('/');
      if (builtinModules.includes(name)) return undefined;
      let pkg;
      try {
        pkg = JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8'));
      } catch {
        return { path: args.path, external: true };
      }
      if (pkg.exports) return { path: args.path, external: true };
      const file = require.resolve(args.path);
      const dir = path.dirname(require.resolve(`${name}/package.json`));
      return { path: `${name}/${path.relative(dir, file).split(path.sep).join('/')}`, external: true };
    });
  },
};

const common = {
  plugins: [deepImports],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: [path.join(root, 'server/main.ts')],
  outfile: path.join(out, 'main.mjs'),
});
await build({
  ...common,
  entryPoints: [path.join(root, 'server/services/lead-import/parse.worker.ts')],
  outfile: path.join(out, 'worker-entry.mjs'),
});
fs.copyFileSync(path.join(root, 'server/db/checkpoint.worker.mjs'), path.join(out, 'checkpoint.worker.mjs'));
console.log('server built: dist-server/main.mjs');
