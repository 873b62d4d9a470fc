import { type Kysely, PostgresAdapter } from 'kysely';
import { maskAadhaar } from '../../contract/aadhaar';
import { Role } from '../../contract/roles';
import {
  type ReassignAnswer,
  type StaffChangeAnswer,
  type StaffMember,
  staffMessages as sm,
} from '../../contract/staff';
import type { Database } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import type { StaffRepository } from '../repositories/staff.repository';
import type { UsersRepository } from '../repositories/users.repository';
import type { AssignmentService } from './assignment.service';
import type { TokenClaims } from './tokens';

interface Deps {
  db: Kysely<Database>;
  staff: StaffRepository;
  users: UsersRepository;
  assignment: AssignmentService;
  /** Called after accounts or leads changed (the dashboard's cached figures). */
  onChange?: () => void;
}

const WEEK_MS = 7 * 86_400_000;

/** A conflict whose transaction must roll back; answered once the rollback is done. */
class Refusal extends Error {
  constructor(readonly answer: Error) {
    super(answer.message);
  }
}

async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    throw error instanceof Refusal ? error.answer : error;
  }
}

/** Deactivate, reactivate and reassign: the Employees screen's rules (issue 17). */
export function createStaffService({ db, staff, users, assignment, onChange }: Deps) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function account(id: number) {
    const user = await users.findById(id);
    if (!user) throw notFound(sm.notFound);
    return user;
  }

  return {
    async list(now = new Date()): Promise<StaffMember[]> {
      const rows = await staff.list(new Date(now.getTime() - WEEK_MS).toISOString());
      return rows.map((u) => ({
        registrationId: u.id,
        email: u.email,
        roleId: u.role_id,
        contact: u.contact,
        aadhaar: u.aadhaar_last4 ? maskAadhaar(u.aadhaar_last4) : null,
        active: u.is_active === 1,
        openLeads: u.open_leads,
        touched7d: u.touched,
        lastSignInAt: u.last_sign_in_at,
      }));
    },

    /**
     * Tokens die at once (token version bump; the session check refuses inactive accounts), the
     * account leaves the employee dropdown and auto-assign, its leads and notes stay. The last
     * active Admin cannot go: nobody could then reactivate anyone.
     */
    async deactivate(id: number): Promise<StaffChangeAnswer> {
      const user = await account(id);
      await inTransaction(db, async (trx) => {
        if (user.role_id === Role.Admin) {
          // Two admins deactivating each other at once: the lock makes the second count the first.
          const admins = trx
            .selectFrom('users')
            .select('id')
            .where('role_id', '=', Role.Admin)
            .where('is_active', '=', 1);
          const active = await (postgres ? admins.forUpdate() : admins).execute();
          if (active.some((a) => a.id === id) && active.length <= 1)
            throw new Refusal(conflict(sm.lastAdmin));
        }
        const current = await users.findById(id, trx);
        if (current?.is_active === 1) await staff.setActive(id, false, trx);
        // Its devices get no more reminders (docs/follow-ups.md); a reactivated user subscribes anew.
        await trx.deleteFrom('push_subscriptions').where('user_id', '=', id).execute();
      });
      onChange?.();
      return { registrationId: id, active: false, message: sm.deactivated };
    },

    /** Back with a fresh token version: tokens from before the deactivation stay dead. */
    async reactivate(id: number): Promise<StaffChangeAnswer> {
      const user = await account(id);
      if (user.is_active !== 1) await db.transaction().execute((trx) => staff.setActive(id, true, trx));
      onChange?.();
      return { registrationId: id, active: true, message: sm.reactivated };
    },

    /**
     * Moves the holder's live leads (all, or the chosen ones: all or nothing) to one active
     * employee, or spreads them by auto-assign's rule over the other active employees. Each move
     * is recorded (from, to, by, when) for the lead's history.
     */
    async reassign(
      actor: TokenClaims,
      request: { fromEmployeeId: number; toEmployeeId?: number; leadIds?: number[] },
    ): Promise<ReassignAnswer> {
      const { fromEmployeeId: fromId, toEmployeeId: toId } = request;
      await account(fromId);
      if (toId !== undefined) {
        if (toId === fromId) throw badRequest(sm.sameEmployee, { toEmployeeId: [sm.sameEmployee] });
        const target = await users.findById(toId);
        if (!target || target.role_id !== Role.Employee || target.is_active !== 1) {
          throw badRequest(sm.targetNotEmployee, { toEmployeeId: [sm.targetNotEmployee] });
        }
      }
      const wanted = request.leadIds ? [...new Set(request.leadIds)] : undefined;
      const perEmployee = await inTransaction(db, async (trx) => {
        const ids = await staff.heldLeadIds(fromId, trx, wanted);
        // Taken once the rows are held (locked on PostgreSQL): a status change that got there first
        // has committed by now, so the history's order is the order things happened in.
        const at = new Date().toISOString();
        if (wanted && ids.length !== wanted.length) throw new Refusal(conflict(sm.leadsMoved));
        if (ids.length === 0) return new Map<number, number[]>();
        const groups = new Map<number, number[]>();
        if (toId !== undefined) {
          groups.set(toId, ids);
        } else {
          const balancer = await assignment.balancer(trx, fromId);
          if (balancer.size === 0) throw new Refusal(conflict(sm.noTargets));
          for (const id of ids) {
            const to = balancer.next()!;
            const group = groups.get(to);
            if (group) group.push(id);
            else groups.set(to, [id]);
          }
        }
        for (const [to, leadIds] of groups) {
          const moved = await staff.move(leadIds, fromId, to, actor.userId, at, trx);
          if (moved !== leadIds.length) throw new Refusal(conflict(sm.leadsMoved));
        }
        return groups;
      });
      if (perEmployee.size > 0) onChange?.();
      const rows = [...perEmployee].map(([employeeId, ids]) => ({ employeeId, count: ids.length }));
      return {
        reassigned: rows.reduce((n, r) => n + r.count, 0),
        perEmployee: rows.sort((a, b) => a.employeeId - b.employeeId),
      };
    },
  };
}
export type StaffService = ReturnType<typeof createStaffService>;
