import { followUpLeadPath, followUpMessages, type ReminderPush } from '../../contract/follow-ups';
import { Role } from '../../contract/roles';
import type { PushSubscriptionsRepository } from '../repositories/push-subscriptions.repository';
import type {
  DeliveryContext,
  ReminderDeliveriesRepository,
} from '../repositories/reminder-deliveries.repository';
import { formatChannels, parseChannels, retryDelayMs } from './follow-up-rules';
import type { Mailer } from './mailer';
import type { PushSender } from './push-sender';

export interface Claim {
  id: number;
  claimed_at: string | null;
  attempts: number;
  sent_channels: string;
}

interface Deps {
  deliveries: ReminderDeliveriesRepository;
  subscriptions: PushSubscriptionsRepository;
  push: PushSender;
  mailer: Mailer;
  publicUrl: string;
  /** A reminder more than this late is not sent any more (server down, retries used up). */
  staleMs: number;
  log: { warn(obj: object, msg: string): void };
}

function mailFor(c: DeliveryContext, publicUrl: string) {
  // The server's time zone (TZ) names the time: the mail has no browser to ask.
  const when = new Date(c.reminder_time).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  const lines = [
    `Follow up with ${c.lead_name} (${c.lead_phone}), set for ${when}.`,
    c.note ? `\nNote: ${c.note}` : '',
    `\nOpen the lead: ${publicUrl}${followUpLeadPath(c.lead_id)}`,
  ];
  return { to: c.email, subject: followUpMessages.mailSubject(c.lead_name), text: lines.join('\n') };
}

/** Sends one claimed reminder by Web Push to each of the employee's devices and by mail. */
export function createReminderDelivery({
  deliveries,
  subscriptions,
  push,
  mailer,
  publicUrl,
  staleMs,
  log,
}: Deps) {
  async function sendPush(c: DeliveryContext): Promise<'delivered' | 'none' | { retry: string }> {
    const targets = await subscriptions.listForUser(c.user_id);
    const payload: ReminderPush = {
      type: 'reminder',
      reminderId: c.id,
      leadId: c.lead_id,
      leadName: c.lead_name,
      phone: c.lead_phone,
      note: c.note,
      reminderTime: c.reminder_time,
      url: followUpLeadPath(c.lead_id),
    };
    const body = JSON.stringify(payload);
    const outcomes = await Promise.all(
      targets.map((t) => push.send({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, body)),
    );
    let retry: string | null = null;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.kind === 'gone') await subscriptions.deleteById(targets[i]!.id);
      if (outcome.kind === 'retry') retry = outcome.reason;
      if (outcome.kind === 'refused') log.warn({ reminderId: c.id, reason: outcome.reason }, 'push refused');
    }
    // One device that got it is enough: sending again would ring that one twice.
    if (outcomes.some((o) => o.kind === 'delivered')) return 'delivered';
    return retry ? { retry } : 'none';
  }

  return async function deliver(claim: Claim, now = new Date()): Promise<void> {
    const claimedAt = claim.claimed_at!;
    const c = await deliveries.context(claim.id);
    if (!c) return;
    const stillTheirs =
      c.lead_deleted_at === null &&
      c.is_active === 1 &&
      (c.role_id === Role.Admin || c.assigned_to_id === c.user_id);
    if (!stillTheirs) return deliveries.giveUp(c.id, claimedAt, 'the lead is no longer this employee’s');
    if (now.getTime() - Date.parse(c.reminder_time) > staleMs) {
      return deliveries.giveUp(c.id, claimedAt, 'stale: its time passed too long ago');
    }

    const sent = new Set(parseChannels(claim.sent_channels));
    const failures: string[] = [];
    if (!sent.has('push')) {
      const result = await sendPush(c);
      if (result === 'delivered') {
        sent.add('push');
        await deliveries.addChannel(c.id, claimedAt, formatChannels(sent));
      } else if (result !== 'none') failures.push(result.retry);
    }
    if (!sent.has('mail')) {
      try {
        await mailer.send(mailFor(c, publicUrl));
        sent.add('mail');
        await deliveries.addChannel(c.id, claimedAt, formatChannels(sent));
      } catch (error) {
        failures.push(`mail: ${(error as Error).message}`);
      }
    }
    if (failures.length === 0) return deliveries.markSent(c.id, claimedAt, new Date().toISOString());
    const at = new Date(Date.now() + retryDelayMs(claim.attempts)).toISOString();
    log.warn(
      { reminderId: c.id, attempts: claim.attempts, retryAt: at, failures },
      'reminder delivery failed',
    );
    return deliveries.retryAt(c.id, claimedAt, at, failures.join('; '));
  };
}
export type ReminderDelivery = ReturnType<typeof createReminderDelivery>;
