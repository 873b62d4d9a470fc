import type { PushPublicKeyAnswer } from '../../../../contract/follow-ups';
import { api } from '../../../lib/api-client';

export const fetchPublicKey = async () =>
  (await api.get('push/public-key').json<PushPublicKeyAnswer>()).publicKey;

/** The browser's own `PushSubscription.toJSON()`, as the server expects it (contract/follow-ups.ts). */
export const saveSubscription = (subscription: PushSubscriptionJSON) =>
  api.post('push/subscriptions', { json: subscription });

export const removeSubscription = (endpoint: string) =>
  api.delete('push/subscriptions', { json: { endpoint } });
