import fs from 'node:fs';

/** Group and other permission bits: any of them lets another account on the machine look in. */
const OTHERS = 0o077;

/**
 * DATA_DIR holds the database (password hashes, every lead) and the secrets (issue 16, finding 8).
 * Every place that creates it does so 0700; an existing folder is left as its admin set it, and
 * this says whether other accounts on the machine can look in, for a warning at start.
 */
export function dataDirExposure(dir: string): { exposed: boolean; mode: string } | null {
  const existing = fs.statSync(dir, { throwIfNoEntry: false });
  if (!existing) return null;
  const mode = existing.mode & 0o777;
  return { exposed: (mode & OTHERS) !== 0, mode: mode.toString(8).padStart(3, '0') };
}

/**
 * Creates the SQLite file 0600 before SQLite opens it; SQLite gives its -wal and -shm files the
 * database file's own mode, so they are 0600 too. An existing file is not changed.
 */
export function createPrivateFile(file: string): void {
  try {
    fs.closeSync(
      fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600),
    );
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  }
}
