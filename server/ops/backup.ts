import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import type { Config } from '../config';

/**
 * `npm run backup` / `npm run restore` (README, Backup). A backup is one gzip file:
 *
 *   LEADNEST-BACKUP 1\n
 *   {manifest as one line of JSON}\n
 *   the SQLite database (a VACUUM INTO copy)
 *
 * The manifest carries the secrets generated into DATA_DIR (secrets.json: the JWT secret and
 * the Aadhaar key; vapid.json: the Web Push keys), the database's size and SHA-256, and a
 * fingerprint of the Aadhaar key the database was written with. Without that key the Aadhaar
 * numbers in the database cannot be read and duplicates are no longer caught, so a restore that
 * would pair the database with another key is refused.
 */

const MAGIC = 'LEADNEST-BACKUP 1\n';
const SECRET_FILES = ['secrets.json', 'vapid.json'] as const;

export class BackupError extends Error {}

interface Manifest {
  format: 1;
  createdAt: string;
  database: { bytes: number; sha256: string };
  /** Contents of the secret files found in DATA_DIR, by file name. */
  secrets: Partial<Record<(typeof SECRET_FILES)[number], string>>;
  /** Where the Aadhaar key in use came from, and a one-way fingerprint of it (null: none yet). */
  aadhaarKey: { source: 'environment' | 'data-dir' | 'none'; fingerprint: string | null };
}

export function aadhaarKeyFingerprint(hexKey: string): string {
  return crypto
    .createHash('sha256')
    .update(`leadnest-aadhaar-key:${hexKey.toLowerCase()}`)
    .digest('hex')
    .slice(0, 16);
}

function sqliteFile(config: Config): string {
  if (config.database.kind !== 'sqlite') {
    throw new BackupError(
      'This server stores its data in PostgreSQL (DATABASE_URL): back it up with pg_dump and restore it ' +
        'with pg_restore (README, Backup). npm run backup/restore handle the SQLite database only.',
    );
  }
  return config.database.file;
}

function readStoredAadhaarKey(dataDir: string): string | undefined {
  const file = path.join(dataDir, 'secrets.json');
  if (!fs.existsSync(file)) return undefined;
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { aadhaarKey?: string }).aadhaarKey;
}

function stamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
}

export interface BackupResult {
  file: string;
  bytes: number;
  databaseBytes: number;
  secrets: string[];
}

/**
 * Writes a backup of a live database: VACUUM INTO reads one snapshot (every transaction committed
 * before it began, none after) on a connection of its own, and in WAL mode the server keeps
 * writing meanwhile. The file appears under its name only once complete.
 */
export function createBackup(config: Config, out?: string): BackupResult {
  const dbFile = sqliteFile(config);
  if (!fs.existsSync(dbFile)) throw new BackupError(`No database at ${dbFile}: nothing to back up.`);
  const target = path.resolve(out ?? path.join(config.dataDir, 'backups', `leadnest-${stamp()}.backup`));
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const snapshot = `${target}.${process.pid}.db.tmp`;
  const partial = `${target}.${process.pid}.tmp`;
  try {
    const source = new SQLite(dbFile, { readonly: true, fileMustExist: true, timeout: 10_000 });
    try {
      source.prepare('VACUUM INTO ?').run(snapshot);
    } finally {
      source.close();
    }
    const database = fs.readFileSync(snapshot);
    const secrets: Manifest['secrets'] = {};
    for (const name of SECRET_FILES) {
      const file = path.join(config.dataDir, name);
      if (fs.existsSync(file)) secrets[name] = fs.readFileSync(file, 'utf8');
    }
    const stored = readStoredAadhaarKey(config.dataDir);
    const key = config.aadhaarKey ?? stored;
    const manifest: Manifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      database: {
        bytes: database.length,
        sha256: crypto.createHash('sha256').update(database).digest('hex'),
      },
      secrets,
      aadhaarKey: {
        source: config.aadhaarKey ? 'environment' : stored ? 'data-dir' : 'none',
        fingerprint: key ? aadhaarKeyFingerprint(key) : null,
      },
    };
    const body = zlib.gzipSync(
      Buffer.concat([Buffer.from(MAGIC), Buffer.from(`${JSON.stringify(manifest)}\n`), database]),
    );
    const fd = fs.openSync(partial, 'w', 0o600);
    try {
      fs.writeSync(fd, body);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    return {
      file: target,
      bytes: body.length,
      databaseBytes: database.length,
      secrets: Object.keys(secrets),
    };
  } finally {
    fs.rmSync(snapshot, { force: true });
    fs.rmSync(partial, { force: true });
  }
}

/** Reads and checks a backup file whole; throws BackupError saying what is wrong with it. */
export function readBackup(file: string): { manifest: Manifest; database: Buffer } {
  if (!fs.existsSync(file)) throw new BackupError(`${file}: no such file.`);
  const raw = fs.readFileSync(file);
  if (raw.length < 2 || raw[0] !== 0x1f || raw[1] !== 0x8b)
    throw new BackupError(`${file} is not a LeadNest backup (made by npm run backup).`);
  let plain: Buffer;
  try {
    plain = zlib.gunzipSync(raw);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'Z_BUF_ERROR' || /unexpected end/i.test(String(error)))
      throw new BackupError(`${file} is truncated (the file ends early): it cannot be restored.`);
    throw new BackupError(`${file} is damaged (${(error as Error).message}): it cannot be restored.`);
  }
  if (!plain.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC)))
    throw new BackupError(`${file} is not a LeadNest backup (made by npm run backup).`);
  const end = plain.indexOf(0x0a, MAGIC.length);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(plain.subarray(MAGIC.length, end).toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`${file} is damaged (its header cannot be read): it cannot be restored.`);
  }
  if (manifest.format !== 1)
    throw new BackupError(`${file} has an unknown backup format (${manifest.format}).`);
  const database = plain.subarray(end + 1);
  if (database.length !== manifest.database.bytes)
    throw new BackupError(
      `${file} is truncated: it holds ${database.length} of the database's ${manifest.database.bytes} bytes.`,
    );
  if (crypto.createHash('sha256').update(database).digest('hex') !== manifest.database.sha256)
    throw new BackupError(
      `${file} is damaged (the database's checksum does not match): it cannot be restored.`,
    );
  return { manifest, database };
}

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
