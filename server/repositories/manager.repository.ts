import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/** A period [from, to) and the instants the "as of now" figures are measured against. */
export interface ActivityWindow {
  from: string;
  to: string;
  now: string;
  /** now − 7 days: leads untouched since are counted. */
  weekAgo: string;
}

const n = (value: unknown) => Number(value ?? 0);

/**
 * The Manager dashboard's aggregates (issue 17): each one GROUP BY, read through indexes
 * (bench/manager.ts prints their plans on SQLite and PostgreSQL). The same SQL runs on both.
 */
export function createManagerRepository(db: Kysely<Database>) {
  return {
    /** Notes and calls per author in the period (lead_notes_time covers it). */
    async notesByAuthor(w: ActivityWindow) {
      const { rows } = await sql<{ author: string; notes: unknown; calls: unknown }>`
        select created_by as author, count(*) as notes, count(call_status_id) as calls
        from lead_notes where created_on >= ${w.from} and created_on < ${w.to}
        group by created_by`.execute(db);
      return rows.map((r) => ({ author: r.author, notes: n(r.notes), calls: n(r.calls) }));
    },

    /** Status moves per author in the period, and those into two given statuses. */
    async movesByAuthor(w: ActivityWindow, siteVisitId: number, bookingId: number) {
      const { rows } = await sql<{ author: string; moves: unknown; site_visits: unknown; bookings: unknown }>`
        select changed_by as author, count(*) as moves,
          sum(case when to_status_id = ${siteVisitId} then 1 else 0 end) as site_visits,
          sum(case when to_status_id = ${bookingId} then 1 else 0 end) as bookings
        from lead_status_changes where changed_at >= ${w.from} and changed_at < ${w.to}
        group by changed_by`.execute(db);
      return rows.map((r) => ({
        author: r.author,
        moves: n(r.moves),
        siteVisits: n(r.site_visits),
        bookings: n(r.bookings),
      }));
    },

    /**
     * One pass over live leads: per holder and current status, how many, and how many untouched
     * (no note or move since a week ago, and not assigned or created since either).
     */
    async leadsByHolderAndStatus(w: ActivityWindow) {
      const { rows } = await sql<{
        holder: number | null;
        status: unknown;
        leads: unknown;
        untouched: unknown;
      }>`
        select l.assigned_to_id as holder, coalesce(s.client_status_id, 0) as status, count(*) as leads,
          sum(case when coalesce(s.last_updated_on, '') < ${w.weekAgo}
                 and coalesce(l.assigned_date, l.created_at) < ${w.weekAgo} then 1 else 0 end) as untouched
        from leads l left join lead_statuses s on s.lead_id = l.id
        where l.deleted_at is null
        group by l.assigned_to_id, coalesce(s.client_status_id, 0)`.execute(db);
      return rows.map((r) => ({
        holder: r.holder === null ? null : n(r.holder),
        status: n(r.status),
        leads: n(r.leads),
        untouched: n(r.untouched),
      }));
    },

    /**
     * Reminders past their time and not done, on leads their employee still holds: what the
     * employee's own "due" list shows (docs/follow-ups.md).
     */
    async overdueByEmployee(w: ActivityWindow) {
      const { rows } = await sql<{ user_id: number; overdue: unknown }>`
        select r.user_id, count(*) as overdue
        from reminders r
        join leads l on l.id = r.lead_id and l.assigned_to_id = r.user_id and l.deleted_at is null
        where r.reminder_time < ${w.now} and r.done_at is null
        group by r.user_id`.execute(db);
      return rows.map((r) => ({ userId: n(r.user_id), overdue: n(r.overdue) }));
    },

    /** Distinct leads moved into each status during the period. */
    async reachedByStatus(w: ActivityWindow) {
      const { rows } = await sql<{ status: unknown; leads: unknown }>`
        select to_status_id as status, count(distinct lead_id) as leads
        from lead_status_changes where changed_at >= ${w.from} and changed_at < ${w.to}
        group by to_status_id`.execute(db);
      return rows.map((r) => ({ status: n(r.status), leads: n(r.leads) }));
    },

    /**
     * Live leads created in the period per campaign, and how many of them are in `bookingId` now.
     * Grouped by an expression, not the column: SQLite would otherwise walk the whole campaign
     * index to save a sort instead of reading the period's range of leads_created.
     */
    async campaigns(w: ActivityWindow, bookingId: number) {
      const { rows } = await sql<{ site_visit: string; leads: unknown; bookings: unknown }>`
        select l.site_visit || '' as site_visit, count(*) as leads,
          sum(case when s.client_status_id = ${bookingId} then 1 else 0 end) as bookings
        from leads l left join lead_statuses s on s.lead_id = l.id
        where l.deleted_at is null and l.created_at >= ${w.from} and l.created_at < ${w.to}
        group by l.site_visit || ''`.execute(db);
      return rows.map((r) => ({ siteVisit: r.site_visit, leads: n(r.leads), bookings: n(r.bookings) }));
    },

    employees() {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'is_active'])
        .where('role_id', '=', 3)
        .orderBy('email')
        .execute();
    },

    clientStatuses() {
      return db
        .selectFrom('client_statuses')
        .select(['id', 'name'])
        .orderBy('sort_order')
        .orderBy('id')
        .execute();
    },
  };
}
export type ManagerRepository = ReturnType<typeof createManagerRepository>;
