import webpush from 'web-push';
import type { VapidKeys } from './vapid-keys';

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * `delivered`: the push service took it (201). `gone`: the subscription no longer exists
 * (404/410), delete it. `retry`: worth trying again later (network, 429, 5xx). `refused`: the push
 * service will not take it however often it is sent (400, 401/403 VAPID, 413).
 */
export type PushOutcome =
  | { kind: 'delivered' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; reason: string }
  | { kind: 'refused'; reason: string };

interface PushSenderOptions {
  vapid: VapidKeys;
  /** Seconds a push service keeps an undelivered message for an offline phone. */
  ttlSeconds: number;
  timeoutMs: number;
}

/**
 * web-push encrypts the payload (aes128gcm) and signs the VAPID JWT; the request itself goes
 * through fetch, which takes an endpoint's URL as it is (web-push's own sender speaks HTTPS only).
 */
export function createPushSender({ vapid, ttlSeconds, timeoutMs }: PushSenderOptions) {
  return {
    async send(target: PushTarget, payload: string): Promise<PushOutcome> {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(target, payload, {
          vapidDetails: vapid,
          TTL: ttlSeconds,
          // Reminders are what the person asked to be interrupted for.
          urgency: 'high',
        });
      } catch (error) {
        // Keys a browser would never produce: sending again cannot help.
        return { kind: 'refused', reason: `bad subscription keys: ${(error as Error).message}` };
      }
      const headers = Object.fromEntries(
        Object.entries(details.headers)
          .filter(([name]) => name.toLowerCase() !== 'content-length')
          .map(([name, value]) => [name, String(value)]),
      );
      let status: number;
      try {
        const res = await fetch(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ? new Uint8Array(details.body) : null,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        status = res.status;
        await res.body?.cancel();
      } catch (error) {
        return { kind: 'retry', reason: `push service unreachable: ${(error as Error).message}` };
      }
      if (status >= 200 && status < 300) return { kind: 'delivered' };
      if (status === 404 || status === 410) return { kind: 'gone', status };
      if (status === 429 || status >= 500)
        return { kind: 'retry', reason: `push service answered ${status}` };
      return { kind: 'refused', reason: `push service answered ${status}` };
    },
  };
}
export type PushSender = ReturnType<typeof createPushSender>;
