import type { z } from 'zod';
import type { pushSubscriptionSchema } from '../../contract/follow-ups';
import type { PushSubscriptionsRepository } from '../repositories/push-subscriptions.repository';
import type { TokenClaims } from './tokens';

type SubscriptionInput = z.output<typeof pushSubscriptionSchema>;

/** A signed-in user's devices for Web Push (issue 15): stored per endpoint, removed at sign-out. */
export function createPushSubscriptionsService(
  subscriptions: PushSubscriptionsRepository,
  publicKey: string,
) {
  return {
    publicKey,
    async subscribe(actor: TokenClaims, input: SubscriptionInput): Promise<{ endpoint: string }> {
      await subscriptions.upsert(
        { userId: actor.userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth },
        new Date().toISOString(),
      );
      return { endpoint: input.endpoint };
    },
    /** Only the caller's own row goes; an unknown endpoint is already what was asked for. */
    unsubscribe(actor: TokenClaims, endpoint: string): Promise<void> {
      return subscriptions.deleteForUser(actor.userId, endpoint);
    },
  };
}
export type PushSubscriptionsService = ReturnType<typeof createPushSubscriptionsService>;
