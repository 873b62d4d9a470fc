import type { Kysely } from 'kysely';
import { Role } from '../contract/roles';
import type { Database, NewLead } from '../server/db/schema';

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

/** What bench:export and bench:manager seed besides the team; the counts are theirs. */
export interface LeadBook {
  leads: number;
  employees: number;
  /** Leads 0 … statuses − 1 have a status record; notes are on those leads. */
  statuses: number;
  notes: number;
  reminders: number;
  /** The fields a bench sets its own way (the export's formula-like names, say). */
  lead: (i: number, created: number) => Pick<NewLead, 'name' | 'email' | 'visit_date_time' | 'interested_in'>;
  noteText: string;
  reminderNote: string;
  /** More rows in the status records' transaction (bench:manager's status changes). */
  afterStatuses?: (
    trx: Kysely<Database>,
    seeded: {
      leadAt: (i: number) => number;
      employees: { id: number; email: string }[];
      statuses: { id: number }[];
    },
  ) => Promise<void>;
}

/**
 * A year of an agency's leads, status records, notes and reminders for a fresh `count`-strong
 * team, drawn from `rand` so that every run seeds the same rows. Answers the team and the client
 * statuses.
 */
export async function seedLeadBook(
  db: Kysely<Database>,
  rand: (k: number) => number,
  now: number,
  book: LeadBook,
) {
  const employees = await seedEmployees(db, book.employees, now);
  const statuses = await db.selectFrom('client_statuses').select('id').execute();
  const anyone = () => employees[rand(employees.length)]!;
  await db.transaction().execute((trx) =>
    inBatches(
      book.leads,
      500,
      (i) => {
        const holder = i % 10 === 0 ? null : anyone().id;
        const created = now - rand(365 * DAY);
        return {
          ...book.lead(i, created),
          phone: String(7_000_000_000 + i),
          configuration: '2 BHK',
          site_visit: CAMPAIGNS[rand(CAMPAIGNS.length)]!,
          location: 'Andheri',
          created_by: null,
          assigned_to_id: holder,
          assigned_date: holder ? iso(created + DAY) : null,
          created_at: iso(created),
          deleted_at: null,
        };
      },
      (batch) => trx.insertInto('leads').values(batch).execute(),
    ),
  );
  const first = await db
    .selectFrom('leads')
    .select((eb) => eb.fn.min('id').as('id'))
    .executeTakeFirstOrThrow();
  const leadAt = (i: number) => Number(first.id) + i;
  const status = () => statuses[rand(statuses.length)]!.id;
  await db.transaction().execute(async (trx) => {
    await inBatches(
      book.statuses,
      500,
      (i) => {
        const at = iso(now - rand(120 * DAY));
        const by = anyone().email;
        return {
          lead_id: leadAt(i),
          call_status_id: 1,
          client_status_id: status(),
          location_id: null,
          configuration_id: null,
          client_priority_id: 1,
          token_id: 1,
          notes: 'seed',
          call_date_time: at,
          created_by: by,
          created_on: at,
          last_updated_by: by,
          last_updated_on: at,
        };
      },
      (batch) => trx.insertInto('lead_statuses').values(batch).execute(),
    );
    await book.afterStatuses?.(trx, { leadAt, employees, statuses });
  });
  await db.transaction().execute(async (trx) => {
    await inBatches(
      book.notes,
      500,
      () => {
        const i = rand(book.statuses);
        return {
          lead_id: leadAt(i),
          lead_status_id: i + 1,
          notes: book.noteText,
          call_status_id: 1 + rand(6),
          client_status_id: status(),
          location_id: null,
          configuration_id: null,
          call_date_time: null,
          created_by: anyone().email,
          created_on: iso(now - rand(365 * DAY)),
        };
      },
      (batch) => trx.insertInto('lead_notes').values(batch).execute(),
    );
    await inBatches(
      book.reminders,
      1000,
      () => {
        const who = anyone();
        return {
          lead_id: leadAt(rand(book.leads)),
          user_id: who.id,
          employee_email: who.email,
          reminder_time: iso(now - rand(60 * DAY) + 10 * DAY),
          note: book.reminderNote,
          is_sent: 0,
          created_by: who.email,
          created_on: iso(now - 70 * DAY),
        };
      },
      (batch) => trx.insertInto('reminders').values(batch).execute(),
    );
  });
  return { employees, statuses };
}
