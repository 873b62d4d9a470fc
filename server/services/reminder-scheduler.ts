import type { ReminderDeliveriesRepository } from '../repositories/reminder-deliveries.repository';
import type { Claim } from './reminder-delivery.service';

interface Options {
  deliveries: ReminderDeliveriesRepository;
  deliver(claim: Claim): Promise<void>;
  scanMs: number;
  /** How long a claim holds before any node may claim the reminder again (crash safety). */
  leaseMs: number;
  log: { error(obj: object, msg: string): void };
  /** Test-only fault hook, run right after a claim and before anything is sent. */
  afterClaim?: () => void;
}

/** Reminders claimed and sent together; each batch is sent well within one lease. */
const BATCH = 10;

/**
 * The claim-and-send loop inside the API process (docs/follow-ups.md): every `scanMs` it claims
 * due reminders a batch at a time and sends them. Every node runs it; the atomic claim is what
 * keeps a reminder from going out twice.
 */
export function createReminderScheduler({ deliveries, deliver, scanMs, leaseMs, log, afterClaim }: Options) {
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let stopped = false;
  // Scans never overlap: the next one starts after the last has finished.
  let running: Promise<void> = Promise.resolve();

  async function scan(): Promise<void> {
    while (!stopped) {
      const now = Date.now();
      const claims = await deliveries.claimDue(
        new Date(now).toISOString(),
        new Date(now + leaseMs).toISOString(),
        BATCH,
      );
      if (claims.length === 0) return;
      afterClaim?.();
      await Promise.all(
        claims.map((claim) =>
          deliver(claim).catch((error: unknown) =>
            // Left claimed: the lease runs out and the reminder is tried again.
            log.error({ err: error, reminderId: claim.id }, 'reminder delivery crashed'),
          ),
        ),
      );
      if (claims.length < BATCH) return;
    }
  }

  function runOnce(): Promise<void> {
    running = running.then(scan).catch((error: unknown) => log.error({ err: error }, 'reminder scan failed'));
    return running;
  }

  function schedule(): void {
    if (!started || stopped) return;
    timer = setTimeout(() => void runOnce().then(schedule), scanMs);
    // The server's socket keeps the process alive; a pending scan must not.
    timer.unref();
  }

  return {
    /** First scan at once: reminders that fell due while no node ran go out on start. */
    start(): void {
      if (started || stopped) return;
      started = true;
      void runOnce().then(schedule);
    },
    /** Sends nothing new; resolves once the scan in progress has finished its sends. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    /** One scan now, after any in progress (tests; safe alongside the timer and other nodes). */
    runOnce,
  };
}
export type ReminderScheduler = ReturnType<typeof createReminderScheduler>;
