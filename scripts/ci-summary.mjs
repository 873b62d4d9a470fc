// Prints one line per test run and the plain 'N passed, N failed' total that CI reads.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const p = report.numPassedTests;
  const f = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  const s = report.numPendingTests + report.numTodoTests;
  console.log(`${path.basename(file, '.json')}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  passed += p;
  failed += f;
  skipped += s;
}
console.log(`total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
