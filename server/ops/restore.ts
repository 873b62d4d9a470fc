import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';
import { aadhaarKeyFingerprint, BackupError, readBackup, SECRET_FILES, sqliteFile, stamp } from './backup';

// `npm run restore` (README, Backup): a backup file (backup.ts) back into DATA_DIR, refused
// unless the server is stopped, the file is whole, its database passes its integrity check and
// it pairs with the Aadhaar key in use.

/**
 * True when another connection (a running server, or its checkpoint thread) has the database
 * open: leaving WAL mode needs every other connection gone, and with no wait SQLite answers BUSY.
 * When free, the database is left in rollback-journal mode with its WAL folded in, which is
 * harmless: the server switches it back to WAL when it opens it.
 */
export function databaseInUse(dbFile: string): boolean {
  if (!fs.existsSync(dbFile)) return false;
  const db = new SQLite(dbFile, { timeout: 0, fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    return false;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    throw error;
  } finally {
    db.close();
  }
}

export interface RestoreResult {
  database: string;
  /** Where the database (and secrets) that were there before now are, if there were any. */
  previous: string[];
  secrets: string[];
}

function decryptsWith(db: SQLite.Database, hexKey: string): boolean | null {
  const row = db
    .prepare("select aadhaar_enc from users where aadhaar_enc is not null and aadhaar_enc <> '' limit 1")
    .get() as { aadhaar_enc: string } | undefined;
  if (!row) return null;
  try {
    const raw = Buffer.from(row.aadhaar_enc, 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts a backup back in place of the configured SQLite database (and its secrets in DATA_DIR).
 * Refused while a server has the database open, for a file that is not a whole LeadNest backup,
 * and when the Aadhaar key the server would use (AADHAAR_KEY) is not the one the backup's
 * database was written with. What was there before is kept beside it (*.before-restore-…).
 */
export function restoreBackup(config: Config, file: string): RestoreResult {
  const dbFile = sqliteFile(config);
  const { manifest, database } = readBackup(path.resolve(file));

  // The key the server will use after the restore: AADHAAR_KEY, else the backup's secrets.json.
  let backupSecrets: { aadhaarKey?: string } = {};
  if (manifest.secrets['secrets.json']) backupSecrets = JSON.parse(manifest.secrets['secrets.json']);
  const keyAfter =
    config.aadhaarKey ?? (manifest.aadhaarKey.source === 'data-dir' ? backupSecrets.aadhaarKey : undefined);
  if (manifest.aadhaarKey.fingerprint) {
    if (!keyAfter) {
      throw new BackupError(
        `This backup was taken with AADHAAR_KEY set in the environment (key fingerprint ${manifest.aadhaarKey.fingerprint}), ` +
          'and the key is not in the backup. Set AADHAAR_KEY to that key and run the restore again.',
      );
    }
    if (aadhaarKeyFingerprint(keyAfter) !== manifest.aadhaarKey.fingerprint) {
      throw new BackupError(
        `AADHAAR_KEY (fingerprint ${aadhaarKeyFingerprint(keyAfter)}) is not the key this backup's database was ` +
          `written with (fingerprint ${manifest.aadhaarKey.fingerprint}): its Aadhaar numbers could not be read. ` +
          "Set AADHAAR_KEY to the backup's key, or unset it to use the key stored in the backup.",
      );
    }
  }

  fs.mkdirSync(path.dirname(dbFile), { recursive: true, mode: 0o700 });
  const incoming = `${dbFile}.restore-${process.pid}.tmp`;
  try {
    const fd = fs.openSync(incoming, 'w', 0o600);
    try {
      fs.writeSync(fd, database);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const check = new SQLite(incoming, { fileMustExist: true });
    try {
      const result = check.pragma('integrity_check', { simple: true });
      if (result !== 'ok')
        throw new BackupError(`The backup's database fails its integrity check: ${result}`);
      if (keyAfter && decryptsWith(check, keyAfter) === false) {
        throw new BackupError(
          "The Aadhaar key the server would use cannot read this backup's Aadhaar numbers: restore refused.",
        );
      }
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`The backup's database cannot be opened: ${(error as Error).message}`);
    } finally {
      check.close();
    }

    if (databaseInUse(dbFile)) {
      throw new BackupError(
        `A LeadNest server has ${dbFile} open: stop it (systemctl stop leadnest, or Ctrl-C) and run the restore again.`,
      );
    }

    const suffix = `.before-restore-${stamp()}`;
    const previous: string[] = [];
    if (fs.existsSync(dbFile)) {
      fs.renameSync(dbFile, `${dbFile}${suffix}`);
      previous.push(`${dbFile}${suffix}`);
    }
    // A WAL left beside the old file must never be replayed into the restored one.
    for (const extra of ['-wal', '-shm', '-journal']) fs.rmSync(`${dbFile}${extra}`, { force: true });
    fs.renameSync(incoming, dbFile);

    const secrets: string[] = [];
    for (const name of SECRET_FILES) {
      const content = manifest.secrets[name];
      if (content === undefined) continue;
      const target = path.join(config.dataDir, name);
      if (fs.existsSync(target)) {
        if (fs.readFileSync(target, 'utf8') === content) continue;
        fs.renameSync(target, `${target}${suffix}`);
        previous.push(`${target}${suffix}`);
      }
      fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, content, { mode: 0o600 });
      secrets.push(name);
    }
    return { database: dbFile, previous, secrets };
  } finally {
    fs.rmSync(incoming, { force: true });
  }
}
