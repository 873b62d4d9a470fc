import { leadStatusMessages } from '../../contract/lead-status';
import {
  type LeadTimeline,
  TIMELINE_ORDER,
  type TimelineEvent,
  type TimelinePerson,
} from '../../contract/lead-timeline';
import { Role } from '../../contract/roles';
import { notFound } from '../errors';
import type { Fillable } from '../repositories/lead-fills.repository';
import type { LeadTimelineRepository } from '../repositories/lead-timeline.repository';
import { type LeadsRepository, toLeadJson } from '../repositories/leads.repository';
import type { TokenClaims } from './tokens';

/** Lead columns as the lead JSON names them (DESIGN.md §2). */
const FIELD_NAMES: Record<Fillable, string> = {
  name: 'name',
  email: 'email',
  configuration: 'configuration',
  interested_in: 'interestedIn',
  site_visit: 'siteVisit',
  location: 'location',
  visit_date_time: 'visitDateTime',
};

const rank = new Map(TIMELINE_ORDER.map((type, i) => [type, i]));

/** Oldest first; at one instant in the order things happen (TIMELINE_ORDER), then as recorded. */
function byTime(a: { e: TimelineEvent; seq: number }, b: { e: TimelineEvent; seq: number }): number {
  const ta = Date.parse(a.e.at);
  const tb = Date.parse(b.e.at);
  if (ta !== tb) return ta - tb;
  return rank.get(a.e.type)! - rank.get(b.e.type)! || a.seq - b.seq;
}

export function createLeadTimelineService({
  timeline,
  leads,
}: {
  timeline: LeadTimelineRepository;
  leads: LeadsRepository;
}) {
  return {
    /**
     * A lead's story (issue 17). Admins and Managers read any live lead; an employee only a lead
     * they hold now, anything else is 404 so a lead's existence is not revealed (DESIGN.md §3).
     */
    async forLead(actor: TokenClaims, leadId: number): Promise<LeadTimeline> {
      const lead = await timeline.lead(leadId);
      if (!lead || (actor.roleId === Role.Employee && lead.assigned_to_id !== actor.userId)) {
        throw notFound(leadStatusMessages.leadNotFound);
      }
      const [json, assignments, statuses, notes, reminders, names, fills] = await Promise.all([
        leads.findLive(leadId),
        timeline.assignments(leadId),
        timeline.statusChanges(leadId),
        timeline.notes(leadId),
        timeline.reminders(leadId),
        timeline.nameChanges(leadId),
        timeline.importFills(leadId),
      ]);
      if (!json) throw notFound(leadStatusMessages.leadNotFound);

      const ids: number[] = [];
      const note = (id: number | null) => {
        if (id !== null) ids.push(id);
      };
      note(lead.assigned_to_id);
      note(lead.created_by);
      note(lead.import_created_by);
      for (const a of assignments) [a.from_user_id, a.to_user_id, a.by_user_id].forEach(note);
      for (const r of reminders) note(r.user_id);
      for (const n of names) note(n.by_user_id);
      for (const f of fills) note(f.created_by);
      const emails = [
        ...statuses.map((s) => s.changed_by),
        ...notes.map((n) => n.created_by),
        ...reminders.map((r) => r.created_by),
      ];
      const people = await timeline.people(ids, emails);
      const emailOf = new Map(people.map((p) => [p.id, p.email]));
      const idOf = new Map(people.map((p) => [p.email.toLowerCase(), p.id]));
      const byId = (id: number | null): TimelinePerson | null =>
        id === null ? null : { registrationId: id, email: emailOf.get(id) ?? '' };
      const byEmail = (email: string): TimelinePerson => ({
        registrationId: idOf.get(email.toLowerCase()) ?? null,
        email,
      });

      const events: TimelineEvent[] = [];
      if (lead.import_id !== null && lead.file_name !== null) {
        events.push({
          type: 'imported',
          at: lead.created_at,
          by: byId(lead.import_created_by),
          importId: lead.import_id,
          fileName: lead.file_name,
        });
      } else {
        events.push({ type: 'created', at: lead.created_at, by: byId(lead.created_by) });
      }
      // Assignments made as a lead is added or imported (auto-assign, an employee's own lead) and
      // those from before assignments were recorded have no row: the first holder is the one the
      // first recorded move took it from, or the holder now when it never moved.
      if (!assignments.some((a) => a.from_user_id === null)) {
        const first = assignments[0]?.from_user_id ?? lead.assigned_to_id;
        if (first !== null) {
          const at = assignments.length === 0 ? (lead.assigned_date ?? lead.created_at) : lead.created_at;
          events.push({ type: 'assigned', at, to: byId(first)!, by: null });
        }
      }
      for (const a of assignments) {
        if (a.from_user_id === null && a.to_user_id !== null) {
          events.push({ type: 'assigned', at: a.at, to: byId(a.to_user_id)!, by: byId(a.by_user_id) });
        } else {
          events.push({
            type: 'reassigned',
            at: a.at,
            from: byId(a.from_user_id),
            to: byId(a.to_user_id),
            by: byId(a.by_user_id),
          });
        }
      }
      for (const n of names) {
        events.push({
          type: 'name-changed',
          at: n.at,
          from: n.from_name,
          to: n.to_name,
          by: byId(n.by_user_id),
        });
      }
      for (const f of fills) {
        events.push({
          type: 'import-filled',
          at: f.at,
          by: byId(f.created_by),
          importId: f.import_id,
          fileName: f.file_name,
          fields: Object.keys(JSON.parse(f.fields) as object).map((c) => FIELD_NAMES[c as Fillable]),
        });
      }
      for (const s of statuses) {
        events.push({
          type: 'status',
          at: s.changed_at,
          from: s.from_status_id === null ? null : { id: s.from_status_id, name: s.from_name ?? '' },
          to: { id: s.to_status_id, name: s.to_name ?? '' },
          by: byEmail(s.changed_by),
        });
      }
      for (const n of notes) {
        events.push({
          type: 'note',
          at: n.created_on,
          noteId: n.id,
          text: n.notes,
          callStatus: n.call_stat,
          clientStatus: n.client_stat,
          by: byEmail(n.created_by),
        });
      }
      for (const r of reminders) {
        const owner = byId(r.user_id) ?? byEmail(r.employee_email);
        events.push({
          type: 'reminder-set',
          at: r.created_on,
          reminderId: r.id,
          remindAt: r.reminder_time,
          note: r.note,
          by: byEmail(r.created_by),
          for: owner,
        });
        if (r.sent_at) {
          events.push({
            type: 'reminder-sent',
            at: r.sent_at,
            reminderId: r.id,
            remindAt: r.reminder_time,
            channels: r.sent_channels.split(',').filter(Boolean),
          });
        }
        if (r.done_at) {
          events.push({
            type: 'reminder-done',
            at: r.done_at,
            reminderId: r.id,
            remindAt: r.reminder_time,
            by: owner,
          });
        }
      }

      const open = reminders
        .filter((r) => r.done_at === null)
        .sort((a, b) => Date.parse(a.reminder_time) - Date.parse(b.reminder_time) || a.id - b.id)[0];
      return {
        lead: toLeadJson(json),
        holder: byId(lead.assigned_to_id),
        nextFollowUp: open ? { reminderId: open.id, at: open.reminder_time, note: open.note } : null,
        events: events
          .map((e, seq) => ({ e, seq }))
          .sort(byTime)
          .map((x) => x.e),
      };
    },
  };
}
export type LeadTimelineService = ReturnType<typeof createLeadTimelineService>;
