// SQLite checkpoints on a connection of their own, off the API thread (database.ts). Plain
// JavaScript, so the thread starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const database = new SQLite(workerData.file);
// The database file is synced once the WAL has been copied into it, as on the API's connection.
database.pragma('synchronous = FULL');

parentPort.on('message', () => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Nothing is lost: the data stays in the WAL, and the next checkpoint copies it.
  }
});
