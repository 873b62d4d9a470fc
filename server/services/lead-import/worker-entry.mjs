// Worker threads do not inherit the parent's tsx loader (on Node 20 `execArgv: ['--import',
// 'tsx']` still fails with ERR_UNKNOWN_FILE_EXTENSION), so this plain-JS entry registers tsx in
// the worker itself and then loads the TypeScript worker. Works under `tsx server/main.ts`,
// vitest and the benchmark alike.
import { tsImport } from 'tsx/esm/api';

await tsImport('./parse.worker.ts', import.meta.url);
