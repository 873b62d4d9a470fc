import type SQLite from 'better-sqlite3';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Lead } from '../../contract/leads';
import { phoneSearchDigits } from '../../contract/phone';
import type { Database, NewLead } from '../db/schema';
import { chunks } from './chunks';
import { createLeadInserter } from './lead-inserts';

type Trx = Kysely<Database>;

/** A lead row joined with what its JSON needs: the assignee's email and its status record. */
export interface LeadJoinedRow {
  id: number;
  name: string;
  email: string;
  phone: string;
  visit_date_time: string | null;
  configuration: string;
  site_visit: string;
  location: string;
  interested_in: string;
  assigned_date: string | null;
  assigned_email: string | null;
  lead_status_id: number | null;
  status: string | null;
  import_note: string;
}

/** The lead JSON of DESIGN.md §2, the one mapping every lead-returning call uses. */
export function toLeadJson(row: LeadJoinedRow): Lead {
  const lead: Lead = {
    leadID: row.id,
    name: row.name,
    email: row.email,
    phoneNo: row.phone,
    contactNo: row.phone,
    visitDateTime: row.visit_date_time,
    configuration: row.configuration,
    siteVisit: row.site_visit,
    assignedTo: row.assigned_email ?? '',
    assignedDate: row.assigned_date,
    location: row.location,
    locationName: row.location,
    interestedIn: row.interested_in,
    status: row.status ?? null,
    leadStatusId: row.lead_status_id ?? null,
  };
  if (row.import_note) lead.importNote = row.import_note;
  return lead;
}

export interface LeadFilter {
  /** Only leads assigned to this user (an employee sees only theirs, DESIGN.md §3). */
  assignedToId?: number;
  unassignedOnly?: boolean;
  search?: string;
  /** Exact campaign (site visit) name (issue 17 drill-downs and export). */
  siteVisit?: string;
  /** Current client status id; 0 for leads with no status record yet ("New"). */
  clientStatusId?: number;
}

export interface LeadRange {
  afterId?: number;
  offset?: number;
  limit?: number;
}

const ID_BATCH = 1000;

function likeContains(search: string): string {
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * `sqlite`: the connection under `db` when it is SQLite (server/db/database.ts), for the import's
 * inserts.
 */
export function createLeadsRepository(db: Kysely<Database>, sqlite?: SQLite.Database) {
  const inserter = createLeadInserter(sqlite);
  function live(filter: LeadFilter, trx: Trx = db) {
    let query = trx.selectFrom('leads').where('leads.deleted_at', 'is', null);
    if (filter.assignedToId !== undefined)
      query = query.where('leads.assigned_to_id', '=', filter.assignedToId);
    if (filter.unassignedOnly) query = query.where('leads.assigned_to_id', 'is', null);
    if (filter.siteVisit !== undefined) query = query.where('leads.site_visit', '=', filter.siteVisit);
    const statusId = filter.clientStatusId;
    if (statusId !== undefined) {
      query = query.where((eb) => {
        const withStatus = eb.selectFrom('lead_statuses').select('lead_statuses.lead_id');
        return statusId === 0
          ? eb('leads.id', 'not in', withStatus)
          : eb('leads.id', 'in', withStatus.where('lead_statuses.client_status_id', '=', statusId));
      });
    }
    const search = filter.search?.trim();
    if (search) {
      const pattern = likeContains(search);
      // A phone typed with spaces or +91 is looked for as the 10 digits stored (issue 19).
      const digits = phoneSearchDigits(search);
      // lower() on both sides and an explicit ESCAPE behave alike on SQLite and PostgreSQL.
      query = query.where((eb) =>
        eb.or([
          ...(['leads.name', 'leads.email', 'leads.phone'] as const).map(
            (column): Expression<SqlBool> =>
              sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`,
          ),
          ...(digits && digits !== search ? [eb('leads.phone', 'like', `%${digits}%`)] : []),
        ]),
      );
    }
    return query;
  }

  function joined(filter: LeadFilter, trx: Trx = db) {
    return live(filter, trx)
      .leftJoin('users', 'users.id', 'leads.assigned_to_id')
      .leftJoin('lead_statuses', 'lead_statuses.lead_id', 'leads.id')
      .leftJoin('client_statuses', 'client_statuses.id', 'lead_statuses.client_status_id')
      .select([
        'leads.id',
        'leads.name',
        'leads.email',
        'leads.phone',
        'leads.visit_date_time',
        'leads.configuration',
        'leads.site_visit',
        'leads.location',
        'leads.interested_in',
        'leads.assigned_date',
        'leads.import_note',
        'users.email as assigned_email',
        'lead_statuses.id as lead_status_id',
        'client_statuses.name as status',
      ]);
  }

  return {
    /** Live leads ordered by id, as the lists answer them. */
    list(filter: LeadFilter, range: LeadRange = {}): Promise<LeadJoinedRow[]> {
      let query = joined(filter).orderBy('leads.id');
      if (range.afterId !== undefined) query = query.where('leads.id', '>', range.afterId);
      if (range.limit !== undefined) query = query.limit(range.limit);
      if (range.offset) query = query.offset(range.offset);
      return query.execute();
    },

    /** One keyset page of the export (issue 17): the list's columns and when each lead was added. */
    exportPage(filter: LeadFilter, afterId: number, limit: number) {
      return joined(filter)
        .select('leads.created_at')
        .where('leads.id', '>', afterId)
        .orderBy('leads.id')
        .limit(limit)
        .execute();
    },

    async count(filter: LeadFilter): Promise<number> {
      const row = await live(filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    findLive(id: number, trx: Trx = db): Promise<LeadJoinedRow | undefined> {
      return joined({}, trx).where('leads.id', '=', id).executeTakeFirst();
    },

    /** These leads, of those live and (when given) assigned to this user; for the delta refresh. */
    listIds(ids: readonly number[], filter: LeadFilter = {}): Promise<LeadJoinedRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return joined(filter).where('leads.id', 'in', ids).orderBy('leads.id').execute();
    },

    /** Which of these phones a live lead already holds, with the holder's email ('' unassigned). */
    async phoneHolders(
      phones: readonly string[],
      trx: Trx = db,
      between?: () => Promise<void>,
    ): Promise<Map<string, string>> {
      const holders = new Map<string, string>();
      for (const part of chunks(phones, ID_BATCH)) {
        const rows = await trx
          .selectFrom('leads')
          .leftJoin('users', 'users.id', 'leads.assigned_to_id')
          .select(['leads.phone', 'users.email'])
          .where('leads.deleted_at', 'is', null)
          .where('leads.phone', 'in', part)
          .execute();
        for (const r of rows) holders.set(r.phone, r.email ?? '');
        await between?.();
      }
      return holders;
    },

    async countLive(trx: Trx = db): Promise<number> {
      const row = await trx
        .selectFrom('leads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Every live phone (read from the live-phone index). */
    async livePhones(trx: Trx = db): Promise<Set<string>> {
      const rows = await trx.selectFrom('leads').select('phone').where('deleted_at', 'is', null).execute();
      return new Set(rows.map((r) => r.phone));
    },

    async insert(lead: NewLead, trx: Trx = db): Promise<number> {
      const row = await trx.insertInto('leads').values(lead).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Inserts and answers the phones that went in; a phone another import took since the
     * caller's check is skipped, not an error (lead-inserts.ts).
     */
    insertMany: inserter.insertMany,

    /** How many of these ids are live leads. */
    async countLiveIds(ids: readonly number[]): Promise<number> {
      let n = 0;
      for (const part of chunks(ids, ID_BATCH)) {
        const row = await db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('id', 'in', part)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow();
        n += Number(row.n);
      }
      return n;
    },

    /** The dashboard's chart counts, each one GROUP BY over live leads. */
    async stats() {
      const totals = await db
        .selectFrom('leads')
        // count(column) skips nulls; both counts come from the (assigned_to_id, deleted_at) index.
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.count<number>('assigned_to_id').as('assigned'),
        ])
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const perHolder = await db
        .selectFrom('leads')
        .innerJoin('users', 'users.id', 'leads.assigned_to_id')
        .select(['users.id', 'users.email', (eb) => eb.fn.countAll<number>().as('count')])
        .where('leads.deleted_at', 'is', null)
        .groupBy(['users.id', 'users.email'])
        .execute();
      const perCampaign = await db
        .selectFrom('leads')
        .select(['site_visit', (eb) => eb.fn.countAll<number>().as('count')])
        .where('deleted_at', 'is', null)
        .groupBy('site_visit')
        .execute();
      return {
        assigned: Number(totals.assigned),
        unassigned: Number(totals.total) - Number(totals.assigned),
        perHolder: perHolder.map((r) => ({ id: r.id, email: r.email, count: Number(r.count) })),
        perCampaign: perCampaign.map((r) => ({ siteVisit: r.site_visit, count: Number(r.count) })),
      };
    },
  };
}
export type LeadsRepository = ReturnType<typeof createLeadsRepository>;
