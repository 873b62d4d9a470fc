import { type Kysely, sql } from 'kysely';

// The dashboard's per-campaign chart (GET /api/Admin/stats) groups live leads by site_visit. The
// first index held only site_visit, so reading deleted_at sent SQLite to every table row; with
// deleted_at in the index the count is read from the index alone (SQLite: "COVERING INDEX";
// PostgreSQL: an index-only scan once vacuumed). Same SQL on both databases.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index leads_live_site_visit on leads (site_visit, deleted_at) where deleted_at is null`.execute(
    db,
  );
  await sql`drop index leads_site_visit`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index leads_site_visit on leads (site_visit) where deleted_at is null`.execute(db);
  await sql`drop index leads_live_site_visit`.execute(db);
}
