import type { LeadNestDb } from '../../../lib/db';
import { fetchPublicKey, removeSubscription, saveSubscription } from '../api/push-api';

/**
 * on / off: this user's reminders do or do not come to this device. blocked: the browser refuses
 * (the user said no, or a policy). needs-install: iPhone Safari, which offers Web Push only to a
 * Home Screen app (iOS 16.4+). unsupported: no Web Push at all.
 */
export type PushState = 'on' | 'off' | 'blocked' | 'needs-install' | 'unsupported';

function isAppleMobile(): boolean {
  const ua = navigator.userAgent;
  // iPadOS asks for the desktop site and says "Macintosh"; touch gives it away.
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

function pushAvailable(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    typeof Notification !== 'undefined'
  );
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushState(db: LeadNestDb): Promise<PushState> {
  if (!pushAvailable()) return isAppleMobile() ? 'needs-install' : 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  if (Notification.permission !== 'granted') return 'off';
  const [subscription, mine] = await Promise.all([currentSubscription(), db.getMeta('pushEndpoint')]);
  // Another user of this phone may have turned it on: theirs is not this user's "on".
  return subscription && subscription.endpoint === mine ? 'on' : 'off';
}

/** base64url (what the server gives) → the bytes `pushManager.subscribe` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/**
 * Asks the browser (on the user's tap: browsers refuse the question otherwise), subscribes this
 * device with the server's VAPID key and stores the subscription for the signed-in user.
 */
export async function turnOn(db: LeadNestDb): Promise<PushState> {
  if (!pushAvailable()) return pushState(db);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'blocked' : 'off';
  const [registration, publicKey] = await Promise.all([navigator.serviceWorker.ready, fetchPublicKey()]);
  let subscription = await registration.pushManager.getSubscription();
  const mine = await db.getMeta('pushEndpoint');
  // Someone else's subscription, or one made with an older server key, is replaced by a fresh one.
  if (subscription && subscription.endpoint !== mine) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  await saveSubscription(subscription.toJSON());
  await db.setMeta('pushEndpoint', subscription.endpoint);
  return 'on';
}

/**
 * Once each time the board opens, online: posts this user's subscription again (idempotent per
 * endpoint on the server). The server may have dropped it (its push service answered 410 once,
 * the account was deactivated and reactivated), and the browser may have renewed or dropped the
 * subscription itself (`pushsubscriptionchange`, which the worker cannot answer: the token lives
 * with the page). Only for a user who turned notifications on here and has not turned them off.
 */
export async function renewSubscription(db: LeadNestDb): Promise<void> {
  if (!pushAvailable() || Notification.permission !== 'granted' || !navigator.onLine) return;
  const mine = await db.getMeta('pushEndpoint');
  const registration = await navigator.serviceWorker.getRegistration();
  if (!mine || !registration) return;
  let subscription = await registration.pushManager.getSubscription();
  // A different one is another user's on this phone (turning on replaced this user's): leave it.
  if (subscription && subscription.endpoint !== mine) return;
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(await fetchPublicKey()),
  });
  await saveSubscription(subscription.toJSON());
  await db.setMeta('pushEndpoint', subscription.endpoint);
}

/** Stops this device's reminders: the server forgets the endpoint, the browser drops it. */
export async function turnOff(db: LeadNestDb): Promise<PushState> {
  const subscription = pushAvailable() ? await currentSubscription() : null;
  if (subscription) {
    await removeSubscription(subscription.endpoint);
    await subscription.unsubscribe();
  }
  await db.meta.delete('pushEndpoint');
  return pushState(db);
}

/**
 * At sign-out: this device stops getting the user's reminders. Never blocks the sign-out: offline,
 * the browser still drops the subscription, and the server deletes the endpoint when the push
 * service answers 410 for it.
 */
export async function forgetDeviceSubscription(db: LeadNestDb): Promise<void> {
  try {
    const mine = await db.getMeta('pushEndpoint');
    const subscription = pushAvailable() ? await currentSubscription() : null;
    if (subscription && subscription.endpoint === mine) {
      await removeSubscription(subscription.endpoint).catch(() => undefined);
      await subscription.unsubscribe();
    }
    await db.meta.delete('pushEndpoint');
  } catch (error) {
    console.warn('Could not remove this device’s notifications', error);
  }
}
