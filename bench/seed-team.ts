import type { Kysely } from 'kysely';
import { Role } from '../contract/roles';
import type { Database } from '../server/db/schema';

// What bench:manager and bench:export both seed: a team of employees and a repeatable stream of
// random numbers, with the helpers to write many rows in batches.

export const DAY = 86_400_000;
export const CAMPAIGNS = ['Riverside', 'Hill View', 'Lakeside', 'Palm Grove', 'Sea Breeze', ''];

/** `--pg` with no URL means TEST_DATABASE_URL or the local PostgreSQL (parseArgs needs a value). */
export function withPgDefault(argv: string[]): string[] {
  return argv.flatMap((a, i, all) =>
    a === '--pg' && (all[i + 1] === undefined || all[i + 1]!.startsWith('--'))
      ? [a, process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test']
      : [a],
  );
}

/** The same numbers on every run (a linear congruential generator): runs seed the same data. */
export function seededRandom(start = 42): (k: number) => number {
  let seed = start;
  return (k) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % k;
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();

export async function inBatches<T>(
  rows: number,
  size: number,
  make: (i: number) => T,
  write: (batch: T[]) => Promise<unknown>,
) {
  for (let start = 0; start < rows; start += size) {
    const batch: T[] = [];
    for (let i = start; i < Math.min(rows, start + size); i++) batch.push(make(i));
    await write(batch);
  }
}

/** `count` employees agent0@bench.test … (no password: the benches call the API as the admin). */
export function seedEmployees(db: Kysely<Database>, count: number, now: number) {
  return db
    .insertInto('users')
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `agent${i}@bench.test`,
        password_hash: 'unused',
        contact: null,
        aadhaar_enc: null,
        aadhaar_hash: null,
        aadhaar_last4: null,
        role_id: Role.Employee,
        created_at: iso(now - 400 * DAY),
      })),
    )
    .returning(['id', 'email'])
    .execute();
}
