import { type Kysely, sql } from 'kysely';

// lead_changes keeps only the newest row of each (employee, lead) pair: a delta lists a lead once
// however many rows it has above the cursor, so the older rows change no answer (the pruning in
// sync-changes.repository.ts). This index finds a newer row of the same pair. Same SQL on both
// databases.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index lead_changes_pair on lead_changes (user_id, lead_id, seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index lead_changes_pair`.execute(db);
}
