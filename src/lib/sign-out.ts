import { api, forgetAnswers } from './api-client';
import { clearSession } from './session';

/** Sign-out waits this long for the server, then goes on without it (a poor link must not trap the user). */
const LOGOUT_TIMEOUT_MS = 5_000;

/**
 * Ends the session, on the server first (issue 16): the token stops working, so a copy of it left
 * on a shared phone, or read off this one, is worthless. Offline, or when the server cannot be
 * reached, the device forgets the token all the same and it runs out on its own (JWT_TTL_HOURS).
 * Then spec §6's clear-out of localStorage, and this tab's answers kept in memory.
 */
export async function signOut(): Promise<void> {
  if (navigator.onLine) {
    try {
      await api.post('Registration/logout', {
        timeout: LOGOUT_TIMEOUT_MS,
        retry: 0,
        context: { signingOut: true },
      });
    } catch {
      // Unreachable, or the token had already ended: the device forgets it all the same.
    }
  }
  forgetAnswers();
  clearSession();
  try {
    // Per-tab traces of the last user (the lead whose call was left for a note prompt).
    sessionStorage.clear();
  } catch {
    // Storage unavailable: nothing kept there either.
  }
}
