import { useId, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { pushMessages as m } from '../../../../contract/push-messages';
import { type LeadNestDb, userDb } from '../../../lib/db';
import { type PushState, turnOff, turnOn } from '../lib/push-subscription';
import { pushStateChanged, usePushState } from '../lib/use-push-state';
import '../push.css';

const TOAST = { duration: 2000 } as const;

/** The menu's "Notifications: On / Off / Blocked", opening what can be done about it here. */
export function NotificationsMenuItem({ email }: { email: string }) {
  const db = useMemo(() => userDb(email), [email]);
  const { state } = usePushState(db);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const panelId = useId();
  if (state === null) return null;

  async function change(to: (db: LeadNestDb) => Promise<PushState>) {
    setBusy(true);
    try {
      const next: PushState = await to(db);
      toast(next === 'on' ? m.enabled : next === 'blocked' ? m.blockedShort : m.disabled, TOAST);
    } catch (error) {
      console.warn('Changing notifications failed', error);
      toast.error(m.failed, TOAST);
    } finally {
      setBusy(false);
      pushStateChanged();
    }
  }

  return (
    <div className="notifications-item">
      <button
        type="button"
        className="nav-link"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {m.menuLabel}{' '}
        <span className="notifications-state" data-state={state}>
          {m.state[state]}
        </span>
      </button>
      {open ? (
        <div id={panelId} className="notifications-panel">
          <NotificationsHelp state={state} />
          {state === 'on' || state === 'off' ? (
            <button
              type="button"
              className="button button-light"
              disabled={busy}
              aria-busy={busy}
              onClick={() => void change(state === 'on' ? turnOff : turnOn)}
            >
              {state === 'on' ? m.turnOff : m.turnOn}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** What each state means, and for "blocked" how to undo it on the two phones field staff carry. */
export function NotificationsHelp({ state }: { state: PushState }) {
  switch (state) {
    case 'on':
      return <p>{m.onText}</p>;
    case 'off':
      return <p>{m.offText}</p>;
    case 'blocked':
      return (
        <>
          <p>{m.blockedText}</p>
          <ul className="notifications-steps">
            <li>{m.unblockAndroid}</li>
            <li>{m.unblockIos}</li>
          </ul>
        </>
      );
    case 'needs-install':
      return <p>{m.needsInstall}</p>;
    case 'unsupported':
      return <p>{m.unsupportedText}</p>;
  }
}
