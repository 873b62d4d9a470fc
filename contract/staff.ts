import { z } from 'zod';
import { MAX_ID } from './leads-list';

// The Employees screen and its calls, /api/Admin/staff and /api/Admin/reassign (issue 17).

/** One account on the Employees screen. `aadhaar` is masked (`XXXX XXXX 1234`) or null. */
export const staffMemberSchema = z.object({
  registrationId: z.number().int(),
  email: z.string(),
  roleId: z.number().int(),
  contact: z.string().nullable(),
  aadhaar: z.string().nullable(),
  active: z.boolean(),
  /** Live leads held now: the count auto-assign balances. */
  openLeads: z.number().int(),
  /** Leads this account wrote a note or status change on in the last 7 days. */
  touched7d: z.number().int(),
  lastSignInAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffParamsSchema = z.object({
  registrationId: z.coerce.number().int().positive().max(MAX_ID),
});

export const staffChangeAnswerSchema = z.object({
  registrationId: z.number().int(),
  active: z.boolean(),
  message: z.string(),
});
export type StaffChangeAnswer = z.infer<typeof staffChangeAnswerSchema>;

/**
 * Moves `fromEmployeeId`'s live leads (all, or `leadIds`) to `toEmployeeId`, or, without one,
 * spreads them over the other active employees by auto-assign's rule (fewest open leads first).
 */
export const reassignSchema = z.object({
  fromEmployeeId: z.coerce.number().int().positive().max(MAX_ID),
  toEmployeeId: z.coerce.number().int().positive().max(MAX_ID).optional(),
  leadIds: z.array(z.coerce.number().int().positive().max(MAX_ID)).min(1).max(200_000).optional(),
});
export type ReassignRequest = z.input<typeof reassignSchema>;

export const reassignAnswerSchema = z.object({
  reassigned: z.number().int(),
  perEmployee: z.array(z.object({ employeeId: z.number().int(), count: z.number().int() })),
});
export type ReassignAnswer = z.infer<typeof reassignAnswerSchema>;

export const staffMessages = {
  notFound: 'Account not found.',
  deactivated:
    'Account deactivated and signed out everywhere. Its leads stay with it until you reassign them.',
  reactivated: 'Account reactivated. It can sign in again.',
  lastAdmin: 'This is the last active Admin: activate or register another Admin first.',
  sameEmployee: 'Choose a different employee to receive the leads.',
  targetNotEmployee: 'Leads can only go to an active employee.',
  noTargets: 'There is no other active employee to receive the leads.',
  leadsMoved: 'Some of the selected leads are no longer held by this employee. Nothing was moved.',
  resetSent: (email: string) => `A password reset link was sent to ${email}.`,
} as const;
