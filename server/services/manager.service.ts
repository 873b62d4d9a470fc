import { sameStatusName } from '../../contract/lead-status-rules';
import {
  type ActivityAnswer,
  type ActivityQuery,
  type EmployeeActivity,
  NEW_STATUS_ID,
  NEW_STATUS_NAME,
} from '../../contract/manager';
import type { ActivityWindow, ManagerRepository } from '../repositories/manager.repository';

const WEEK_MS = 7 * 86_400_000;

/** GET /api/Manager/activity: the team's figures for a period (issue 17). */
export function createManagerService({ manager }: { manager: ManagerRepository }) {
  return {
    async activity(query: ActivityQuery, now = new Date()): Promise<ActivityAnswer> {
      const w: ActivityWindow = {
        from: new Date(query.from).toISOString(),
        to: new Date(query.to).toISOString(),
        now: now.toISOString(),
        weekAgo: new Date(now.getTime() - WEEK_MS).toISOString(),
      };
      const statuses = await manager.clientStatuses();
      const idOf = (name: string) => statuses.find((s) => sameStatusName(s.name, name))?.id ?? -1;
      const [siteVisitId, bookingId] = [idOf('Site Visit'), idOf('Booking')];
      // One at a time: on SQLite they share the one connection anyway, and on PostgreSQL this
      // keeps one dashboard from taking several pool connections.
      const users = await manager.employees();
      const notes = await manager.notesByAuthor(w);
      const moves = await manager.movesByAuthor(w, siteVisitId, bookingId);
      const held = await manager.leadsByHolderAndStatus(w);
      const overdue = await manager.overdueByEmployee(w);
      const reached = await manager.reachedByStatus(w);
      const campaigns = await manager.campaigns(w, bookingId);

      const byEmail = new Map(notes.map((r) => [r.author.toLowerCase(), r]));
      const movesByEmail = new Map(moves.map((r) => [r.author.toLowerCase(), r]));
      const overdueById = new Map(overdue.map((r) => [r.userId, r.overdue]));
      const untouchedById = new Map<number, number>();
      const funnel = new Map<number, number>();
      for (const row of held) {
        funnel.set(row.status, (funnel.get(row.status) ?? 0) + row.leads);
        if (row.holder !== null)
          untouchedById.set(row.holder, (untouchedById.get(row.holder) ?? 0) + row.untouched);
      }
      const reachedById = new Map(reached.map((r) => [r.status, r.leads]));

      const employees: EmployeeActivity[] = [];
      for (const u of users) {
        const note = byEmail.get(u.email.toLowerCase());
        const move = movesByEmail.get(u.email.toLowerCase());
        const row: EmployeeActivity = {
          registrationId: u.id,
          email: u.email,
          notes: note?.notes ?? 0,
          calls: note?.calls ?? 0,
          moves: move?.moves ?? 0,
          siteVisits: move?.siteVisits ?? 0,
          bookings: move?.bookings ?? 0,
          overdueFollowUps: overdueById.get(u.id) ?? 0,
          untouched7d: untouchedById.get(u.id) ?? 0,
        };
        // A deactivated account shows only while it has something to show.
        const shown =
          u.is_active === 1 ||
          Object.entries(row).some(([k, v]) => k !== 'registrationId' && typeof v === 'number' && v > 0);
        if (shown) employees.push(row);
      }

      return {
        employees,
        funnel: [{ id: NEW_STATUS_ID, name: NEW_STATUS_NAME }, ...statuses].map((s) => ({
          clientStatusId: s.id,
          clientStat: s.name,
          count: funnel.get(s.id) ?? 0,
          reached: reachedById.get(s.id) ?? 0,
        })),
        campaigns: campaigns.sort((a, b) => b.leads - a.leads || a.siteVisit.localeCompare(b.siteVisit)),
      };
    },
  };
}
export type ManagerService = ReturnType<typeof createManagerService>;
