import type { Lead } from '../../contract/leads';
import {
  LEADS_PAGE_SIZE,
  type LeadListItem,
  type LeadListQuery,
  type LeadSearchQuery,
  type LeadUpdateRequest,
  leadEditMessages as m,
  normalisePhone,
} from '../../contract/leads-list';
import { Role } from '../../contract/roles';
import { isUniqueViolation } from '../db/database';
import type { LeadUpdate } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { type LeadFilter, type LeadsRepository, toLeadJson } from '../repositories/leads.repository';
import type { LeadsAdminRepository } from '../repositories/leads-admin.repository';
import type { TokenClaims } from './tokens';

function phoneOf(body: LeadUpdateRequest): string | undefined {
  const given = [body.phoneNo, body.contactNo].filter((v): v is string => v !== undefined);
  if (given.length === 0) return undefined;
  const normalised = given.map((v) => normalisePhone(v));
  if (normalised.some((v) => v === null)) throw badRequest(m.phoneRule, { contactNo: [m.phoneRule] });
  if (new Set(normalised).size > 1) throw badRequest(m.phoneMismatch, { contactNo: [m.phoneMismatch] });
  return normalised[0]!;
}

/** Only the fields the body carries change; ids, assignment and status are not edited here. */
function changesOf(body: LeadUpdateRequest): LeadUpdate {
  const changes: LeadUpdate = { name: body.name };
  const phone = phoneOf(body);
  if (phone !== undefined) changes.phone = phone;
  if (body.email !== undefined) changes.email = body.email;
  if (body.visitDateTime !== undefined) {
    changes.visit_date_time = body.visitDateTime === null ? null : new Date(body.visitDateTime).toISOString();
  }
  if (body.configuration !== undefined) changes.configuration = body.configuration;
  if (body.siteVisit !== undefined) changes.site_visit = body.siteVisit;
  const location = body.location ?? body.locationName;
  if (location !== undefined) changes.location = location;
  if (body.interestedIn !== undefined) changes.interested_in = body.interestedIn;
  return changes;
}

const toItem = (r: { id: number; name: string; email: string; phone: string }): LeadListItem => ({
  leadID: r.id,
  name: r.name,
  email: r.email,
  contactNo: r.phone,
});

export function createLeadsListService({
  leads,
  edits,
}: {
  leads: LeadsRepository;
  edits: LeadsAdminRepository;
}) {
  return {
    /**
     * Without page or pageSize the whole (filtered) list, as the spec's client expects; with
     * either, one page. Both answer the filtered total for the X-Total-Count header. The
     * filters are the admin list's (issue 19), read by the same repository query.
     */
    async list(query: LeadListQuery): Promise<{ items: LeadListItem[]; total: number }> {
      const filter: LeadFilter = {
        search: query.search?.trim() ?? '',
        assignedToId: query.employeeId,
        unassignedOnly: query.unassigned,
        siteVisit: query.siteVisit,
        clientStatusId: query.clientStatusId,
      };
      const paged = query.page !== undefined || query.pageSize !== undefined;
      const pageSize = query.pageSize ?? LEADS_PAGE_SIZE;
      const range = paged ? { offset: ((query.page ?? 1) - 1) * pageSize, limit: pageSize } : undefined;
      const [rows, total] = await Promise.all([
        leads.list(filter, range),
        paged ? leads.count(filter) : Promise.resolve(-1),
      ]);
      return {
        items: rows.map(toItem),
        total: paged ? total : rows.length,
      };
    },

    /** The navbar search: Admins and Managers search every lead, an employee only their own. */
    async search(
      actor: TokenClaims,
      { q, limit }: LeadSearchQuery,
    ): Promise<{ items: LeadListItem[]; total: number }> {
      const assigneeId = actor.roleId === Role.Employee ? actor.userId : undefined;
      const [rows, total] = await Promise.all([
        leads.list({ search: q, assignedToId: assigneeId }, { limit }),
        leads.count({ search: q, assignedToId: assigneeId }),
      ]);
      return { items: rows.map(toItem), total };
    },

    async update(id: number, body: LeadUpdateRequest, actor: TokenClaims): Promise<Lead> {
      const changes = changesOf(body);
      try {
        const by = { userId: actor.userId, at: new Date().toISOString() };
        if ((await edits.update(id, changes, by)) === 0) throw notFound(m.notFound);
      } catch (error) {
        // The live-phone unique index decides, so two edits racing cannot both take a number.
        if (isUniqueViolation(error)) throw conflict(m.phoneTaken);
        throw error;
      }
      const row = await leads.findLive(id);
      if (!row) throw notFound(m.notFound);
      return toLeadJson(row);
    },

    async remove(id: number): Promise<void> {
      if ((await edits.softDelete(id, new Date())) === 0) throw notFound(m.notFound);
    },
  };
}
export type LeadsListService = ReturnType<typeof createLeadsListService>;
