import type { AdminLeadsQuery, NewLead } from '../../contract/admin';
import { adminMessages as am } from '../../contract/admin';
import type { Lead } from '../../contract/leads';
import { normalisePhone } from '../../contract/leads-list';
import { Role } from '../../contract/roles';
import { isUniqueViolation } from '../db/database';
import { badRequest, HttpError } from '../errors';
import { type LeadsRepository, toLeadJson } from '../repositories/leads.repository';
import type { UsersRepository } from '../repositories/users.repository';
import type { TokenClaims } from './tokens';

const DEFAULT_PAGE_SIZE = 100;

interface Deps {
  /** Writes and reads that must see them. */
  leads: LeadsRepository;
  /** Dashboard reads; on SQLite a second connection, so a running import does not block them. */
  leadsReader: LeadsRepository;
  users: UsersRepository;
  /** Called after a lead was added. */
  onChange?: () => void;
}

function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export function createLeadsService({ leads, leadsReader, users, onChange }: Deps) {
  /** Only an Admin learns who holds the phone: anyone else could map numbers to colleagues (issue 16). */
  function duplicate(holder: string, actor: TokenClaims) {
    const message = actor.roleId === Role.Admin ? am.duplicatePhone(holder) : am.duplicatePhoneTaken;
    return new HttpError(409, message, { title: message });
  }

  async function assigneeOf(body: NewLead, actor: TokenClaims): Promise<number | null> {
    // An employee's new lead is always theirs, whatever the body says (DESIGN.md §3).
    if (actor.roleId === Role.Employee) return actor.userId;
    const email = body.assignedTo?.trim();
    if (!email) return null;
    const user = await users.findByEmail(email);
    if (!user || user.role_id !== Role.Employee || user.is_active !== 1) {
      throw badRequest(am.assigneeUnknown, { assignedTo: [am.assigneeUnknown] });
    }
    return user.id;
  }

  return {
    /**
     * Live leads ordered by id. With page, pageSize, afterId or search, one page plus the
     * filtered total for X-Total-Count; without them the whole list, as spec §7's clients expect.
     * An employee only ever sees the leads assigned to them.
     */
    async list(query: AdminLeadsQuery, actor: TokenClaims, unassignedOnly: boolean) {
      const filter = {
        search: query.search,
        unassignedOnly,
        assignedToId: actor.roleId === Role.Employee ? actor.userId : query.employeeId,
        siteVisit: query.siteVisit,
        clientStatusId: query.clientStatusId,
      };
      const paged =
        query.page !== undefined ||
        query.pageSize !== undefined ||
        query.afterId !== undefined ||
        !!query.search ||
        query.employeeId !== undefined ||
        query.siteVisit !== undefined ||
        query.clientStatusId !== undefined;
      const limit = query.pageSize ?? (query.page !== undefined ? DEFAULT_PAGE_SIZE : undefined);
      const offset =
        query.page !== undefined && query.afterId === undefined ? (query.page - 1) * (limit ?? 0) : undefined;
      const [rows, total] = await Promise.all([
        leadsReader.list(filter, { afterId: query.afterId, limit, offset }),
        paged ? leadsReader.count(filter) : Promise.resolve(-1),
      ]);
      const items = rows.map(toLeadJson);
      return { items, total: paged ? total : items.length };
    },

    /** Spec §3 "New lead"; the live-phone unique index decides between two adds racing. */
    async add(body: NewLead, actor: TokenClaims, now = new Date()): Promise<Lead> {
      const phone = normalisePhone(body.phoneNo ?? body.contactNo ?? '');
      if (!phone) throw badRequest(am.phoneRule, { phoneNo: [am.phoneRule] });
      const holders = await leads.phoneHolders([phone]);
      if (holders.has(phone)) throw duplicate(holders.get(phone)!, actor);
      const assignee = await assigneeOf(body, actor);
      let id: number;
      try {
        id = await leads.insert({
          name: body.name,
          email: body.email,
          phone,
          visit_date_time: isoOrNull(body.visitDateTime),
          configuration: body.configuration || body.interestedIn,
          site_visit: body.siteVisit,
          location: body.location,
          interested_in: body.interestedIn || body.configuration,
          assigned_to_id: assignee,
          // An employee's lead is assigned now, whatever date the body claims (issue 16).
          assigned_date:
            assignee === null
              ? null
              : actor.roleId === Role.Employee
                ? now.toISOString()
                : (isoOrNull(body.assignedDate) ?? now.toISOString()),
          created_at: now.toISOString(),
          created_by: actor.userId,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw duplicate((await leads.phoneHolders([phone])).get(phone) ?? '', actor);
      }
      onChange?.();
      const row = await leads.findLive(id);
      if (!row) throw new Error(`lead ${id} vanished after insert`);
      return toLeadJson(row);
    },
  };
}
export type LeadsService = ReturnType<typeof createLeadsService>;
