import { useEffect, useRef } from 'react';

// Survives the page being discarded while the dialer is in front (Android does that to save
// memory): the app then loads afresh, and the prompt still comes.
const CONTACT_KEY = 'leadnest.lastContact';
const DISMISSED_KEY = 'leadnest.postCallDismissed';
/** Back after longer than this, the call is no longer fresh enough to prompt for (issue 15). */
export const POST_CALL_WINDOW_MS = 30 * 60_000;

interface Contact {
  leadId: number;
  at: number;
  /** The page was hidden after the tap: the dialer or WhatsApp really came to the front. */
  left: boolean;
}

function read<T>(store: Storage | undefined, key: string): T | null {
  try {
    const raw = store?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(store: Storage | undefined, key: string, value: unknown): void {
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage unavailable: no prompt, nothing else lost.
  }
}

const session = () => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
const local = () => (typeof localStorage === 'undefined' ? undefined : localStorage);
const dayOf = (ms: number) => new Date(ms).toDateString();

/** Call or WhatsApp was tapped for this lead. */
export function rememberContact(leadId: number, now = Date.now()): void {
  write(session(), CONTACT_KEY, { leadId, at: now, left: false } satisfies Contact);
}

/** The employee closed the prompted note modal without saving: no more prompts for this lead today. */
export function dismissPostCall(leadId: number, now = Date.now()): void {
  const dismissed = read<Record<string, string>>(local(), DISMISSED_KEY) ?? {};
  const today = dayOf(now);
  const kept = Object.fromEntries(Object.entries(dismissed).filter(([, day]) => day === today));
  write(local(), DISMISSED_KEY, { ...kept, [leadId]: today });
}

function onHidden(): void {
  const contact = read<Contact>(session(), CONTACT_KEY);
  if (contact && !contact.left) write(session(), CONTACT_KEY, { ...contact, left: true });
}

/** On coming back: the lead to prompt for, if the call was left for and is fresh; forgotten either way. */
export function takeReturn(now = Date.now()): number | null {
  const contact = read<Contact>(session(), CONTACT_KEY);
  if (!contact?.left) return null;
  write(session(), CONTACT_KEY, null);
  if (now - contact.at > POST_CALL_WINDOW_MS) return null;
  const dismissed = read<Record<string, string>>(local(), DISMISSED_KEY) ?? {};
  return dismissed[contact.leadId] === dayOf(now) ? null : contact.leadId;
}

/**
 * After Call or WhatsApp, coming back to the app (`visibilitychange`) prompts for the call's
 * outcome while it is fresh (issue 15). Also on load, for a page discarded while away.
 */
export function usePostCallPrompt(onPrompt: (leadId: number) => void): void {
  const latest = useRef(onPrompt);
  latest.current = onPrompt;
  useEffect(() => {
    const check = () => {
      const leadId = takeReturn();
      if (leadId !== null) latest.current(leadId);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') onHidden();
      else check();
    };
    check();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
}
