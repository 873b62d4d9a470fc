import { useCallback, useEffect, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router-dom';
import { messages } from '../../../../contract/messages';
import { syncMessages } from '../../../../contract/sync';
import { paths } from '../../../config/paths';
import { userDb } from '../../../lib/db';
import { signOut } from '../../../lib/sign-out';
import {
  syncEngineFor,
  useAttentionRows,
  useOnline,
  usePendingCount,
  useSyncEngine,
} from '../../sync/hooks/use-sync-engine';
import { discardRow, editRow, retryRow } from '../../sync/outbox';
import { releaseDeviceData } from '../../sync/sign-out';
import { BOARD_TOAST } from '../hooks/use-board-actions';
import { useBoardData } from '../hooks/use-board-data';
import { useOlderBoardActions } from '../hooks/use-older-board-actions';
import { buildOlderColumns, emailLocalPart, olderColumnKey } from '../lib/older-columns';
import { NeedsAttention } from './needs-attention';
import { OlderBoardColumn } from './older-board-column';
import { OlderLeadCard } from './older-lead-card';
import '../board.css';
import '../older-board.css';

/** Spec §2 /employees, drawn from the same device copy and outbox as /employee (DESIGN.md §5). */
export function OlderBoardScreen({ email }: { email: string }) {
  return <OlderBoard key={email} email={email} />;
}

function OlderBoard({ email }: { email: string }) {
  const db = useMemo(() => userDb(email), [email]);
  const navigate = useNavigate();
  const data = useBoardData(db);
  const online = useOnline();
  const pending = usePendingCount(db);
  const attention = useAttentionRows(db);
  const engine = syncEngineFor(db);
  const [openNotes, setOpenNotes] = useState<Set<number>>(() => new Set());
  const [lastSaved, setLastSaved] = useState<Map<number, string>>(() => new Map());

  const open = useCallback((leadId: number) => setOpenNotes((s) => new Set(s).add(leadId)), []);
  const toggle = (leadId: number) =>
    setOpenNotes((s) => {
      const next = new Set(s);
      if (!next.delete(leadId)) next.add(leadId);
      return next;
    });
  const actions = useOlderBoardActions({
    db,
    engine,
    email,
    clientStatuses: data.options.clientStatuses,
    openNotes: open,
  });
  const { load } = useSyncEngine(db, actions.onEvent);

  useEffect(() => {
    if (load === 'failed') toast.error(messages.board.loadFailed, BOARD_TOAST);
  }, [load]);

  const columns = useMemo(() => buildOlderColumns(data.leads), [data.leads]);

  async function logout() {
    if (!(await releaseDeviceData(email))) return;
    engine.stop();
    await signOut();
    navigate(paths.login, { replace: true });
  }

  const onDropLead = (key: string) => (leadId: number) => {
    const lead = data.leads.find((l) => l.leadID === leadId);
    if (lead) void actions.moveLead(lead, key);
  };

  return (
    <div className="board older-board">
      <header className="board-header">
        <div className="board-heading">
          <p className="board-welcome">Welcome, {emailLocalPart(email)}</p>
          <p className="sync-status" role="status" aria-live="polite">
            {!online ? <span className="offline-mark">Offline</span> : null}
            {pending > 0 ? <span>{syncMessages.waiting(pending)}</span> : null}
          </p>
        </div>
        <div className="board-toolbar">
          <button type="button" className="button button-secondary" onClick={() => void logout()}>
            Logout
          </button>
        </div>
      </header>

      <NeedsAttention
        rows={attention}
        onEdit={(row, payload) => void editRow(db, row.id, payload).then(() => engine.flush())}
        onRetry={(row) => void retryRow(db, row.id).then(() => engine.flush())}
        onDiscard={(row) => void discardRow(db, row.id)}
      />

      {data.loaded && data.leads.length === 0 && load !== 'loading' ? (
        <p className="muted board-empty">{messages.olderBoard.empty}</p>
      ) : null}

      <div className="board-columns older-columns">
        {columns.map((column) => (
          <OlderBoardColumn key={column.key} column={column} onDropLead={onDropLead(column.key)}>
            {column.leads.map((lead) => (
              <OlderLeadCard
                key={lead.leadID}
                lead={lead}
                notesOpen={openNotes.has(lead.leadID)}
                onToggleNotes={() => toggle(lead.leadID)}
                moveTargets={columns.filter((c) => c.key !== olderColumnKey(lead))}
                onMove={(key) => void actions.moveLead(lead, key)}
                callStatuses={data.options.callStatuses}
                clientStatuses={data.options.clientStatuses}
                lastSaved={lastSaved.get(lead.leadID) ?? null}
                onSaveNote={async (note) => {
                  await actions.saveNote(lead, note);
                  setLastSaved((m) => new Map(m).set(lead.leadID, note.notes));
                }}
              />
            ))}
          </OlderBoardColumn>
        ))}
      </div>
    </div>
  );
}
