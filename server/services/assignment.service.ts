import type { Kysely } from 'kysely';
import { type AssignResponse, adminMessages as am } from '../../contract/admin';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';
import type { Database } from '../db/schema';
import { HttpError } from '../errors';
import type { LeadAssignmentsRepository } from '../repositories/lead-assignments.repository';
import type { UsersRepository } from '../repositories/users.repository';

type Trx = Kysely<Database>;

/**
 * Hands out employees so that each next lead goes to the one with the fewest open leads, ties to
 * the lowest id (DESIGN.md §4). A binary min-heap: 100,000 leads over E employees cost
 * O(n log E), all in memory after one GROUP BY.
 */
export class LoadBalancer {
  private readonly heap: { id: number; open: number }[];

  constructor(loads: readonly { id: number; open: number }[]) {
    this.heap = loads.map((l) => ({ ...l }));
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  get size(): number {
    return this.heap.length;
  }

  /** The employee who takes the next lead (their count goes up by one), or null with none. */
  next(): number | null {
    const top = this.heap[0];
    if (!top) return null;
    top.open += 1;
    this.down(0);
    return top.id;
  }

  /** Gives back a lead handed out by next() that was not inserted after all. */
  release(id: number): void {
    const i = this.heap.findIndex((e) => e.id === id);
    if (i < 0) return;
    this.heap[i]!.open -= 1;
    this.up(i);
  }

  loads(): { id: number; open: number }[] {
    return [...this.heap].sort((a, b) => a.id - b.id);
  }

  private less(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.open < y.open || (x.open === y.open && x.id < y.id);
  }

  private swap(a: number, b: number): void {
    const t = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = t;
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < this.heap.length && this.less(l, min)) min = l;
      if (r < this.heap.length && this.less(r, min)) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }
}

class PartialAssignment extends Error {}

interface Deps {
  db: Kysely<Database>;
  assignments: LeadAssignmentsRepository;
  users: UsersRepository;
  /** Called after leads changed hands. */
  onChange?: () => void;
}

export function createAssignmentService({ db, assignments, users, onChange }: Deps) {
  async function requireEmployee(id: number): Promise<void> {
    const user = await users.findById(id);
    if (!user) throw new HttpError(404, am.employeeNotFound, { title: am.employeeNotFound });
    if (user.role_id !== Role.Employee || user.is_active !== 1) {
      throw new HttpError(400, am.notAnEmployee, { title: am.notAnEmployee });
    }
  }

  return {
    /** Seeds a balancer from the open-lead counts, inside the caller's transaction. */
    async balancer(trx: Trx, exceptId?: number): Promise<LoadBalancer> {
      const loads = await assignments.employeeLoads(trx);
      return new LoadBalancer(exceptId === undefined ? loads : loads.filter((l) => l.id !== exceptId));
    },

    /**
     * Spec §4: only unassigned leads can be assigned, all or nothing. When another admin took
     * one of them first, the whole request is rolled back and answered 409 naming the leads
     * taken (`takenLeadIds`), so the dashboard keeps the selection and marks them (issue 19).
     */
    async assign(
      employeeId: number,
      leadIds: readonly number[],
      byId: number,
      now = new Date(),
    ): Promise<AssignResponse> {
      await requireEmployee(employeeId);
      const ids = [...new Set(leadIds)];
      try {
        await db.transaction().execute(async (trx) => {
          const changed = await assignments.assignUnassigned(ids, employeeId, now.toISOString(), trx);
          if (changed !== ids.length) throw new PartialAssignment();
          await assignments.recordAssignments(ids, employeeId, byId, now.toISOString(), trx);
        });
      } catch (error) {
        if (!(error instanceof PartialAssignment)) throw error;
        const live = await assignments.assignees(ids);
        if (live.length < ids.length) {
          throw new HttpError(404, am.leadsNotFound, { title: am.leadsNotFound });
        }
        const taken = live.filter((l) => l.email !== null);
        const title =
          taken.length === 0
            ? am.leadsAlreadyAssigned
            : am.leadsTaken(
                taken.map((l) => ({ name: l.name, assignedTo: l.email! })),
                ids.length,
              );
        throw new HttpError(409, title, { title, takenLeadIds: taken.map((l) => l.id) });
      }
      onChange?.();
      return { assigned: ids.length, message: messages.assign.success };
    },
  };
}
export type AssignmentService = ReturnType<typeof createAssignmentService>;
