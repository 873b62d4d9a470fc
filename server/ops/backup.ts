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
export const SECRET_FILES = ['secrets.json', 'vapid.json'] as const;

export class BackupError extends Error {}

export interface Manifest {
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

export function sqliteFile(config: Config): string {
  if (config.database.kind !== 'sqlite') {
    throw new BackupError(
      'This server stores its data in PostgreSQL (DATABASE_URL): back it up with pg_dump and restore it ' +
        'with pg_restore (README, Backup). npm run backup/restore handle the SQLite database only.',
    );
  }
  return config.database.file;
}

export function readStoredAadhaarKey(dataDir: string): string | undefined {
  const file = path.join(dataDir, 'secrets.json');
  if (!fs.existsSync(file)) return undefined;
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { aadhaarKey?: string }).aadhaarKey;
}

export function stamp(date = new Date()): string {
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
