import { useEffect, useState } from 'react';
import type { HistoryEntry } from '../../../../contract/lead-status';
import { leadStatusMessages } from '../../../../contract/lead-status-rules';
import { syncMessages } from '../../../../contract/sync';
import { getNoteHistory } from '../api/get-history';

interface NoteHistoryProps {
  leadId: number;
  /** Notes saved on this device that have not reached the server yet, oldest first. */
  waiting: readonly { id: string; text: string }[];
  /** Changes when a note was just saved, so the list loads again. */
  version: number;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The lead's earlier notes: the server's history plus what is still waiting on this device. */
export function NoteHistory({ leadId, waiting, version }: NoteHistoryProps) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    // A lead added offline has no server history yet; `version` reloads after each save.
    void version;
    if (leadId < 0) {
      setEntries([]);
      return;
    }
    let cancelled = false;
    getNoteHistory(leadId).then(
      (list) => {
        if (cancelled) return;
        setEntries(list);
        setFailed(false);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [leadId, version]);

  const empty = waiting.length === 0 && entries !== null && entries.length === 0;
  return (
    <section className="note-history" aria-label="Earlier notes">
      <h3 className="note-section-title">Earlier notes</h3>
      {failed ? <p className="muted">{leadStatusMessages.historyOffline}</p> : null}
      {empty ? <p className="muted">{leadStatusMessages.noHistory}</p> : null}
      <ul className="note-history-list">
        {[...waiting].reverse().map(({ id, text }) => (
          <li key={id} className="note-history-item">
            <p className="note-history-meta">
              <span className="pending-mark">{syncMessages.pending}</span>
            </p>
            <p>{text}</p>
          </li>
        ))}
        {(entries ?? []).map((e) => (
          <li key={e.noteId} className="note-history-item">
            <p className="note-history-meta">
              <time dateTime={e.createdOn}>{when(e.createdOn)}</time>
              {' · '}
              {[e.callStat, e.clientStat, e.locationName, e.configurationType].filter(Boolean).join(' · ')}
            </p>
            <p>{e.notes}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
