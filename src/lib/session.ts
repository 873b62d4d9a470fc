import { create } from 'zustand';
import { isRoleId, type RoleId } from '../../contract/roles';

// Spec §3 fixes these localStorage key names.
const TOKEN_KEY = 'token';
const EMAIL_KEY = 'employeeEmail';
const ROLE_KEY = 'roleId';

export interface Session {
  token: string;
  email: string;
  roleId: RoleId;
}

function storage(): Storage | null {
  // Private browsing modes and locked-down webviews can throw on access.
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readSession(): Session | null {
  const store = storage();
  const token = store?.getItem(TOKEN_KEY);
  const roleId = Number(store?.getItem(ROLE_KEY));
  if (!token || !isRoleId(roleId)) return null;
  return { token, email: store?.getItem(EMAIL_KEY) ?? '', roleId };
}

export function readToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

interface SessionState {
  session: Session | null;
}

export const useSessionStore = create<SessionState>(() => ({ session: readSession() }));

export function useSession(): Session | null {
  return useSessionStore((state) => state.session);
}

export function saveSession(session: Session): void {
  const store = storage();
  store?.setItem(TOKEN_KEY, session.token);
  store?.setItem(EMAIL_KEY, session.email);
  store?.setItem(ROLE_KEY, String(session.roleId));
  useSessionStore.setState({ session });
}

/** Logout clears all of localStorage (spec §6); the offline outbox lives in IndexedDB and survives. */
export function clearSession(): void {
  storage()?.clear();
  useSessionStore.setState({ session: null });
}

// Survives the reload to /login after a 401 (sessionStorage is not wiped by logout's clear()).
const ENDED_KEY = 'leadnest.sessionEnded';

export function markSessionEnded(): void {
  try {
    sessionStorage.setItem(ENDED_KEY, '1');
  } catch {
    // Storage unavailable: the login screen simply shows no notice.
  }
}

export function sessionEndedNotice(): boolean {
  try {
    return sessionStorage.getItem(ENDED_KEY) === '1';
  } catch {
    return false;
  }
}

export function dismissSessionEndedNotice(): void {
  try {
    sessionStorage.removeItem(ENDED_KEY);
  } catch {
    // Nothing to dismiss.
  }
}

/** Keeps tabs in step: signing out in one tab signs out the others. */
export function watchSessionAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === ROLE_KEY) {
      useSessionStore.setState({ session: readSession() });
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
