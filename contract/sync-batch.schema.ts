import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from './sync';
import { SYNC_MAX_OPS, type SyncOp, syncBatchMessages, syncOpKinds } from './sync-batch';

export const syncOpSchema = z.object({
  key: z.string().regex(IDEMPOTENCY_KEY_PATTERN),
  kind: z.enum(syncOpKinds),
  leadId: z.number().int().optional(),
  body: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<SyncOp>;

export const syncBatchSchema = z.object({
  ops: z
    .array(syncOpSchema)
    .min(1)
    .max(SYNC_MAX_OPS)
    .refine((ops) => new Set(ops.map((op) => op.key)).size === ops.length, {
      message: syncBatchMessages.duplicateKey,
    }),
});

export const syncBatchAnswerSchema = z.object({
  results: z.array(z.object({ key: z.string(), status: z.number().int(), body: z.unknown() })),
});

export const syncChangesQuerySchema = z.object({
  since: z
    .string()
    .regex(/^\d{1,15}(\.\d{1,15})?$/)
    .optional(),
});

export const syncOptionListsSchema = z.object({
  callStatuses: z.array(z.object({ callStatusId: z.number().int(), callStat: z.string() })),
  clientStatuses: z.array(z.object({ clientStatusId: z.number().int(), clientStat: z.string() })),
  locations: z.array(z.object({ locationId: z.number().int(), locationName: z.string() })),
  configurations: z.array(z.object({ configurationId: z.number().int(), configurationType: z.string() })),
});
