// `npm run restore -- FILE`: puts a backup made by `npm run backup` back in place of the SQLite
// database and its secrets (server/ops/backup.ts, README "Backup"). Stop the server first.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config';
import { BackupError } from '../server/ops/backup';
import { restoreBackup } from '../server/ops/restore';

try {
  const { positionals } = parseArgs({ allowPositionals: true });
  if (positionals.length !== 1) throw new BackupError('Usage: npm run restore -- FILE');
  const result = restoreBackup(loadConfig(), positionals[0]!);
  console.log(`Restored ${result.database} from ${positionals[0]}`);
  if (result.secrets.length) console.log(`  secrets restored: ${result.secrets.join(', ')}`);
  for (const file of result.previous) console.log(`  kept what was there before as ${file}`);
  console.log('Start the server again.');
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  console.error(`Restore refused: ${error.message}`);
  process.exit(1);
}
