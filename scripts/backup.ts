// `npm run backup [-- --out FILE]`: a consistent copy of the SQLite database and the secrets in
// DATA_DIR, taken while the server runs (server/ops/backup.ts, README "Backup"). Reads the same
// environment as the server (DATA_DIR, DATABASE_URL, AADHAAR_KEY).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config';
import { BackupError, createBackup } from '../server/ops/backup';

try {
  const { values } = parseArgs({ options: { out: { type: 'string', short: 'o' } } });
  const result = createBackup(loadConfig(), values.out);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `Backup written: ${result.file}\n  ${mb(result.bytes)} (database ${mb(result.databaseBytes)} before compression)` +
      `\n  secrets included: ${result.secrets.length ? result.secrets.join(', ') : 'none (set in the environment)'}`,
  );
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  console.error(`Backup failed: ${error.message}`);
  process.exit(1);
}
