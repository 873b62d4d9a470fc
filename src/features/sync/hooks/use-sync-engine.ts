import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import type { LeadNestDb } from '../../../lib/db';
import { refreshLeads, refreshReminders } from '../refresh';
import { createSyncEngine, type SyncEngine, type SyncEvent } from '../sync-engine';

const engines = new WeakMap<LeadNestDb, SyncEngine>();

/** One engine per user database per page, however often the board remounts. */
export function syncEngineFor(db: LeadNestDb): SyncEngine {
  let engine = engines.get(db);
  if (!engine) {
    engine = createSyncEngine(db);
    engines.set(db, engine);
  }
  return engine;
}

export type LoadState = 'loading' | 'ready' | 'failed';

/**
 * Starts the outbox for the signed-in user and keeps the cache fresh: a refresh on start, after
 * changes went through, and when the network comes back. Reports how the first load went.
 */
export function useSyncEngine(db: LeadNestDb, onEvent: (event: SyncEvent) => void) {
  const engine = syncEngineFor(db);
  const [load, setLoad] = useState<LoadState>('loading');
  // The latest handler, so the subscription made once still calls the current board callback.
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    let cancelled = false;
    let sentSinceRefresh = 0;
    // The option lists come with the leads' changes when they changed (issue 18).
    const refreshAll = async () => {
      const [result] = await Promise.all([refreshLeads(db), refreshReminders(db)]);
      return result;
    };
    const unsubscribe = engine.subscribe((event) => {
      if (event.type === 'synced') sentSinceRefresh += 1;
      if (event.type === 'idle' && sentSinceRefresh > 0) {
        sentSinceRefresh = 0;
        refreshLeads(db).catch(() => undefined);
      }
      handler.current(event);
    });
    const onOnline = () => void refreshAll().catch(() => undefined);
    window.addEventListener('online', onOnline);
    (async () => {
      // This screen only shows for a signed-in user: rows paused by a 401 may go again.
      if (await db.getMeta('authPaused')) await engine.resume();
      const result = await refreshAll();
      if (cancelled) return;
      const cached = (await db.getMeta('leadsLoadedAt')) !== undefined;
      setLoad(result === 'ok' || cached ? 'ready' : 'failed');
    })().catch((error: unknown) => console.warn('Loading the board failed', error));
    const stop = engine.start();
    return () => {
      cancelled = true;
      stop();
      unsubscribe();
      window.removeEventListener('online', onOnline);
    };
  }, [db, engine]);

  return { engine, load };
}

/** Rows still waiting for the server (the header's "n changes waiting to sync"). */
export function usePendingCount(db: LeadNestDb): number {
  return useLiveQuery(() => db.outbox.where('state').equals('pending').count(), [db]) ?? 0;
}

export function useAttentionRows(db: LeadNestDb) {
  return useLiveQuery(() => db.outbox.where('state').equals('attention').sortBy('createdAt'), [db]) ?? [];
}

/** navigator.onLine, kept current. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}
