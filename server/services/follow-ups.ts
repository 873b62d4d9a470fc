import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Dialect } from '../db/database';
import type { Database } from '../db/schema';
import { createPushSubscriptionsRepository } from '../repositories/push-subscriptions.repository';
import { createReminderDeliveriesRepository } from '../repositories/reminder-deliveries.repository';
import type { Mailer } from './mailer';
import { createPushSender } from './push-sender';
import { createPushSubscriptionsService } from './push-subscriptions.service';
import { createReminderDelivery } from './reminder-delivery.service';
import { createReminderScheduler } from './reminder-scheduler';
import { loadVapidKeys } from './vapid-keys';

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const PUSH_TIMEOUT_MS = 10_000;

/** Web Push subscriptions and the reminder scheduler (issue 15), wired once per app. */
export function createFollowUps(
  config: Config,
  { db, dialect, mailer }: { db: Kysely<Database>; dialect: Dialect; mailer: Mailer },
) {
  // The app's logger exists only once Fastify is built; the plugin hands it over.
  let logger: Logger = { warn() {}, error() {} };
  const log: Logger = {
    warn: (obj, msg) => logger.warn(obj, msg),
    error: (obj, msg) => logger.error(obj, msg),
  };
  const vapid = loadVapidKeys(config);
  const subscriptions = createPushSubscriptionsRepository(db);
  const deliveries = createReminderDeliveriesRepository(db, dialect);
  const staleMs = config.reminders.staleMinutes * 60_000;
  const deliver = createReminderDelivery({
    deliveries,
    subscriptions,
    // A push service keeps a message for an offline phone no longer than it is worth showing.
    push: createPushSender({ vapid, ttlSeconds: staleMs / 1000, timeoutMs: PUSH_TIMEOUT_MS }),
    mailer,
    publicUrl: config.publicUrl,
    staleMs,
    log,
  });
  const scheduler = createReminderScheduler({
    deliveries,
    deliver,
    scanMs: config.reminders.scanSeconds * 1000,
    leaseMs: config.reminders.claimLeaseSeconds * 1000,
    log,
    afterClaim:
      config.testFault === 'kill-after-reminder-claim'
        ? () => process.kill(process.pid, 'SIGKILL')
        : undefined,
  });
  return {
    pushSubscriptions: createPushSubscriptionsService(subscriptions, vapid.publicKey),
    reminderScheduler: scheduler,
    useLogger(l: Logger): void {
      logger = l;
    },
  };
}
export type FollowUps = ReturnType<typeof createFollowUps>;
