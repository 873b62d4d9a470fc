import { type LeadStats, NO_CAMPAIGN } from '../../contract/admin';
import type { Employee } from '../../contract/leads';
import { Role } from '../../contract/roles';
import type { LeadsRepository } from '../repositories/leads.repository';
import type { UsersRepository } from '../repositories/users.repository';

interface Deps {
  leadsReader: LeadsRepository;
  usersReader: UsersRepository;
  /** How long one computation answers every caller; writes through this app drop it at once. */
  maxAgeMs?: number;
}

export function createStatsService({ leadsReader, usersReader, maxAgeMs = 1000 }: Deps) {
  // Three GROUP BYs over 100,000 leads take tens of milliseconds of the API thread (SQLite runs
  // in-process). Callers within a second, or while one computation runs, or while the database
  // has not changed since (its change mark, server/db/reader.ts), share one answer, so a room
  // full of dashboards — or one watching a long import — costs a query per change, not per request.
  let recent: { startedAt: number; version: string | null; answer: Promise<LeadStats> } | null = null;

  async function compute(): Promise<LeadStats> {
    const [counts, employees] = await Promise.all([
      leadsReader.stats(),
      usersReader.listByRole(Role.Employee),
    ]);
    const perEmployee = new Map<number, { email: string; count: number }>();
    for (const e of employees) perEmployee.set(e.id, { email: e.email, count: 0 });
    for (const h of counts.perHolder) perEmployee.set(h.id, { email: h.email, count: h.count });
    return {
      assigned: counts.assigned,
      unassigned: counts.unassigned,
      perEmployee: [...perEmployee.values()].sort((a, b) => a.email.localeCompare(b.email)),
      perCampaign: counts.perCampaign
        .map((c) => ({ siteVisit: c.siteVisit || NO_CAMPAIGN, count: c.count }))
        .sort((a, b) => b.count - a.count || a.siteVisit.localeCompare(b.siteVisit)),
    };
  }

  return {
    /** Called after this app changed leads (import, assign, add), so the next caller sees it. */
    invalidate(): void {
      recent = null;
    },

    /** `GET /api/Admin/employees`: active employees by email, for the assign dropdown. */
    async employees(): Promise<Employee[]> {
      const rows = await usersReader.listByRole(Role.Employee);
      return rows
        .map((e) => ({ registrationId: e.id, email: e.email }))
        .sort((a, b) => a.email.localeCompare(b.email));
    },

    /** DESIGN.md §2: assigned/unassigned, per employee (active ones with none too), per campaign. */
    stats(version: string | null = null): Promise<LeadStats> {
      const now = Date.now();
      if (recent && (now - recent.startedAt < maxAgeMs || (version !== null && recent.version === version)))
        return recent.answer;
      const answer = compute();
      const entry = { startedAt: now, version, answer };
      recent = entry;
      answer.catch(() => {
        if (recent === entry) recent = null;
      });
      return answer;
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
