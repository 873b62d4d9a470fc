import { z } from 'zod';

// GET /api/Manager/activity (issue 17): the Manager dashboard's figures for a period [from, to).

export const activityQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, {
    message: 'The period can be at most a year.',
    path: ['to'],
  });
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/**
 * Per employee. Period figures: notes logged, calls (notes with a call status), status moves,
 * moves into Site Visit and into Booking. Figures as of now: overdue follow-ups (reminders past
 * their time and not done, on leads the employee still holds) and untouched leads (held, no note or
 * move and not assigned in the last 7 days).
 */
export const employeeActivitySchema = z.object({
  registrationId: z.number().int(),
  email: z.string(),
  notes: z.number().int(),
  calls: z.number().int(),
  moves: z.number().int(),
  siteVisits: z.number().int(),
  bookings: z.number().int(),
  overdueFollowUps: z.number().int(),
  untouched7d: z.number().int(),
});
export type EmployeeActivity = z.infer<typeof employeeActivitySchema>;

/** Live leads by client status now (id 0 "New": no status yet); `reached`: moved there in the period. */
export const funnelStepSchema = z.object({
  clientStatusId: z.number().int(),
  clientStat: z.string(),
  count: z.number().int(),
  reached: z.number().int(),
});

/** Leads created in the period per campaign, and how many of them are in Booking now. */
export const campaignActivitySchema = z.object({
  siteVisit: z.string(),
  leads: z.number().int(),
  bookings: z.number().int(),
});

export const activityAnswerSchema = z.object({
  employees: z.array(employeeActivitySchema),
  funnel: z.array(funnelStepSchema),
  campaigns: z.array(campaignActivitySchema),
});
export type ActivityAnswer = z.infer<typeof activityAnswerSchema>;

/** The funnel's id for leads with no status record yet. */
export const NEW_STATUS_ID = 0;
export const NEW_STATUS_NAME = 'New';
