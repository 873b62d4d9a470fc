import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { pushMessages as m } from '../../../../contract/push-messages';
import type { LeadNestDb } from '../../../lib/db';
import { renewSubscription, turnOn } from '../lib/push-subscription';
import { pushStateChanged, usePushState } from '../lib/use-push-state';
import '../push.css';

const TOAST = { duration: 2000 } as const;

/**
 * The board's one-time offer to turn reminders on for this device (issue 15). Asked on a tap,
 * never on load: browsers mute sites that ask unprompted, and a "no" there is hard to undo.
 */
export function EnableNotificationsPrompt({ db }: { db: LeadNestDb }) {
  const { state } = usePushState(db);
  const answered = useLiveQuery(async () => (await db.getMeta('pushPromptAnswered')) ?? false, [db]);
  const [busy, setBusy] = useState(false);
  // This component is the board's only push code (lazy), so it also keeps an "on" device on.
  useEffect(() => {
    renewSubscription(db)
      .then(pushStateChanged)
      .catch((error) => console.warn('Could not renew this device’s notifications', error));
  }, [db]);
  if (state !== 'off' || answered !== false) return null;

  async function answer(enable: boolean) {
    setBusy(true);
    try {
      if (enable) {
        const next = await turnOn(db);
        toast(next === 'on' ? m.enabled : next === 'blocked' ? m.blockedShort : m.laterHint, TOAST);
      } else {
        toast(m.laterHint, TOAST);
      }
      await db.setMeta('pushPromptAnswered', true);
    } catch (error) {
      console.warn('Turning notifications on failed', error);
      toast.error(m.failed, TOAST);
    } finally {
      setBusy(false);
      pushStateChanged();
    }
  }

  return (
    <section className="push-prompt" aria-labelledby="push-prompt-title">
      <div className="push-prompt-text">
        <h2 id="push-prompt-title" className="push-prompt-title">
          {m.promptTitle}
        </h2>
        <p>{m.promptText}</p>
      </div>
      <div className="push-prompt-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          aria-busy={busy}
          onClick={() => void answer(true)}
        >
          {m.turnOn}
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void answer(false)}
        >
          {m.notNow}
        </button>
      </div>
    </section>
  );
}
