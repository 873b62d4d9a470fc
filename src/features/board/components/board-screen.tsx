import { DragDropContext, type DropResult } from '@hello-pangea/dnd';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router-dom';
import { boardFollowUpMessages as todayMessages } from '../../../../contract/follow-ups-rules';
import { messages } from '../../../../contract/messages';
import { syncMessages } from '../../../../contract/sync';
import { paths } from '../../../config/paths';
import { type CachedLead, userDb } from '../../../lib/db';
import { signOut } from '../../../lib/sign-out';
import { usePhoneLayout } from '../../../lib/use-media-query';
import type { SavedNote } from '../../notes/components/note-form';
import { UpcomingReminders } from '../../reminders/components/upcoming-reminders';
import { useDueReminders } from '../../reminders/hooks/use-due-reminders';
import { dismissPostCall } from '../../reminders/lib/post-call';
import {
  syncEngineFor,
  useAttentionRows,
  useOnline,
  usePendingCount,
  useSyncEngine,
} from '../../sync/hooks/use-sync-engine';
import { discardRow, editRow, retryRow } from '../../sync/outbox';
import { releaseDeviceData } from '../../sync/sign-out';
import { BOARD_TOAST, useBoardActions } from '../hooks/use-board-actions';
import { useBoardData } from '../hooks/use-board-data';
import { useDensity } from '../hooks/use-density';
import { useFollowUpBoard, useUpcomingReminders } from '../hooks/use-follow-up-board';
import { useLeadIdSwaps } from '../hooks/use-lead-id-swaps';
import { NEW_LEADS, welcomeName } from '../lib/columns';
import { BoardChrome } from './board-chrome';
import { BoardColumn } from './board-column';
import { ColumnTabs } from './column-tabs';
import '../board.css';
import '../../reminders/today.css';

// The dialogs and the "Needs attention" panel are not on the board's first paint (issue 7: board
// ≤ 170 KB), so they load when first shown; offline, the service worker's precache serves them like every other chunk.
const NoteModal = lazy(async () => ({ default: (await import('./note-modal')).NoteModal }));
const AddLeadModal = lazy(async () => ({ default: (await import('./add-lead-modal')).AddLeadModal }));
// Only shown when the server refused a change.
const NeedsAttention = lazy(async () => ({ default: (await import('./needs-attention')).NeedsAttention }));
// Shown once, to those who have not answered it; it brings the push subscription code with it.
const EnableNotificationsPrompt = lazy(async () => ({
  default: (await import('../../push/components/enable-notifications-prompt')).EnableNotificationsPrompt,
}));

/**
 * The lead the Add Note modal is open on; `moveTo` when saving the note is what moves the lead;
 * `afterCall` when the post-call prompt opened it.
 */
interface NoteFor {
  leadId: number;
  clientStatusId: number | null;
  moveTo: string | null;
  afterCall?: boolean;
}

/** The board of the signed-in employee, drawn from the device's copy and synced in the background. */
export function BoardScreen({ email }: { email: string }) {
  return <Board key={email} email={email} />;
}

function Board({ email }: { email: string }) {
  const db = useMemo(() => userDb(email), [email]);
  const navigate = useNavigate();
  const data = useBoardData(db);
  const online = useOnline();
  const pending = usePendingCount(db);
  const attention = useAttentionRows(db);
  const [density, setDensity] = useDensity();
  const phone = usePhoneLayout();
  const columnsRow = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const [noteFor, setNoteFor] = useState<NoteFor | null>(null);
  // The post-call prompt counts as dismissed when its modal closes with no note saved.
  const savedSinceOpen = useRef(false);
  const [addLead, setAddLead] = useState<{ initialStatus: string | null } | null>(null);
  // Spec §2: Set Reminder opens up once a note was saved for that lead in this session.
  const [savedNotes, setSavedNotes] = useState<Map<number, SavedNote>>(() => new Map());

  const openNote = useCallback(
    (leadId: number, clientStatusId: number | null, moveTo: string | null = null) =>
      setNoteFor({ leadId, clientStatusId, moveTo }),
    [],
  );
  const engine = syncEngineFor(db);
  const statusNames = useMemo(() => data.statuses.map((s) => s.clientStat), [data.statuses]);
  const actions = useBoardActions({ db, engine, email, statuses: data.statuses, openNote });
  // The latest actions behind callbacks that never change, so the columns' cards are not redrawn
  // for a new function on every render.
  const latestActions = useRef(actions);
  latestActions.current = actions;
  const moveLead = useCallback(
    (lead: CachedLead, target: string) => void latestActions.current.moveLead(lead, target),
    [],
  );
  const addNote = useCallback((lead: CachedLead) => openNote(lead.leadID, null), [openNote]);
  const { load } = useSyncEngine(db, actions.onEvent);
  const openFollowUp = useCallback((leadId: number, afterCall: boolean) => {
    savedSinceOpen.current = false;
    setNoteFor({ leadId, clientStatusId: null, moveTo: null, afterCall });
  }, []);
  const followUps = useFollowUpBoard({
    reminders: data.reminders,
    outbox: data.outbox,
    leads: data.leads,
    settled: data.loaded && load !== 'loading',
    openNote: openFollowUp,
  });

  useLeadIdSwaps(db, setNoteFor, setSavedNotes);

  useEffect(() => {
    // Spec §8: only when there is neither network nor a copy on the device.
    if (load === 'failed') toast.error(messages.board.loadFailed, BOARD_TOAST);
  }, [load]);

  useEffect(() => {
    // DESIGN.md §5: ask the browser not to evict the outbox under storage pressure.
    void navigator.storage?.persist?.().catch(() => false);
  }, []);

  const upcoming = useUpcomingReminders(followUps.items);
  useDueReminders(
    upcoming.all,
    (key) => data.notified.includes(key),
    async (key) => {
      const seen = (await db.getMeta('notifiedReminders')) ?? [];
      await db.setMeta('notifiedReminders', [...seen, key]);
    },
  );

  const onDragEnd = (result: DropResult) => {
    const { destination, source, draggableId } = result;
    // Spec §4: dropping back into the same column does nothing.
    if (
      !destination ||
      destination.droppableId === source.droppableId ||
      destination.droppableId === NEW_LEADS
    )
      return;
    const lead = data.leads.find((l) => String(l.leadID) === draggableId);
    if (lead) void actions.moveLead(lead, destination.droppableId);
  };

  async function logout() {
    if (!(await releaseDeviceData(email))) return;
    engine.stop();
    await signOut();
    navigate(paths.login, { replace: true });
  }

  // The columns are drawn from a deferred copy: React draws the cards in slices between which
  // the phone can answer a tap, not in one long task (Lighthouse's total blocking time).
  const drawn = useDeferredValue(data);

  const noteLead = noteFor ? data.leads.find((l) => l.leadID === noteFor.leadId) : undefined;
  const waitingNotes = noteLead
    ? data.outbox
        .filter((r) => r.kind === 'note' && r.leadId === noteLead.leadID && r.state === 'pending')
        .map((r) => ({ id: r.id, text: String(r.payload.notes ?? '') }))
    : [];

  return (
    <div className="board" data-density={density} data-layout={phone ? 'phone' : 'wide'}>
      <BoardChrome
        phone={phone}
        welcome={welcomeName(email)}
        density={density}
        onDensity={setDensity}
        firstColumn={statusNames[0] ?? NEW_LEADS}
        onAddLead={(initialStatus) => setAddLead({ initialStatus })}
        onLogout={() => void logout()}
        pending={pending}
        attention={attention.length}
        online={online}
      />

      {followUps.overdue > 0 ? (
        <p className="overdue-banner" role="status">
          {todayMessages.overdueBanner(followUps.overdue)}
          <Link to={paths.today}>{todayMessages.openToday}</Link>
        </p>
      ) : null}

      <Suspense fallback={null}>
        <EnableNotificationsPrompt db={db} />
      </Suspense>

      {attention.length > 0 ? (
        <Suspense fallback={null}>
          <NeedsAttention
            rows={attention}
            onEdit={(row, payload) => void editRow(db, row.id, payload).then(() => engine.flush())}
            onRetry={(row) => void retryRow(db, row.id).then(() => engine.flush())}
            onDiscard={(row) => void discardRow(db, row.id)}
          />
        </Suspense>
      ) : null}

      {/* Columns appear once there is something to put in them (the device's copy, or the first
          answer), not empty first and pushed about when the leads land. */}
      {!drawn.loaded || (drawn.leads.length === 0 && load === 'loading') ? (
        <p className="page-loading">Loading your leads…</p>
      ) : (
        <>
          {drawn.leads.length === 0 ? <p className="muted board-empty">{messages.olderBoard.empty}</p> : null}

          {phone ? <ColumnTabs columns={drawn.columns} scroller={columnsRow} /> : null}
          <DragDropContext
            onDragStart={() => setDragging(true)}
            onDragEnd={(result) => {
              setDragging(false);
              onDragEnd(result);
            }}
          >
            {/* While a card is carried, snapping would fight the drag library's auto-scroll. */}
            <div className="board-columns" ref={columnsRow} data-dragging={dragging}>
              {drawn.columns.map((column) => (
                <BoardColumn
                  key={column.id}
                  column={column}
                  statusColumns={statusNames}
                  onMove={moveLead}
                  onAddNote={addNote}
                  followUps={followUps.marks}
                />
              ))}
            </div>
          </DragDropContext>

          <UpcomingReminders reminders={upcoming.future} />
        </>
      )}

      <Suspense fallback={null}>
        {noteLead ? (
          <NoteModal
            key={noteLead.leadID}
            lead={noteLead}
            options={data.options}
            initialClientStatusId={noteFor?.clientStatusId ?? null}
            moveTo={noteFor?.moveTo ?? null}
            lastSaved={savedNotes.get(noteLead.leadID) ?? null}
            waitingNotes={waitingNotes}
            onSave={async (note) => {
              await actions.saveNote(noteLead, note);
              savedSinceOpen.current = true;
              setSavedNotes((m) => new Map(m).set(noteLead.leadID, note));
            }}
            onSetReminder={(reminder) =>
              actions.setReminder(noteLead, reminder, savedNotes.get(noteLead.leadID)?.notes ?? '')
            }
            onClose={() => {
              if (noteFor?.afterCall && !savedSinceOpen.current) dismissPostCall(noteLead.leadID);
              setNoteFor(null);
            }}
          />
        ) : null}

        {addLead ? (
          <AddLeadModal
            statusColumns={statusNames}
            initialStatus={addLead.initialStatus}
            onClose={() => setAddLead(null)}
            onSubmit={async (values) => {
              const outcome = await actions.addLead(values);
              if (outcome.type === 'refused') return outcome.message;
              if (outcome.type === 'added') toast.success(messages.board.leadAdded, BOARD_TOAST);
              else toast(syncMessages.savedOffline, { ...BOARD_TOAST, id: 'saved-offline' });
              setAddLead(null);
              // The first status of a lead comes with its first note (DESIGN.md §5).
              const chosen = data.statuses.find((s) => s.clientStat === values.status);
              if (chosen) openNote(outcome.leadId, chosen.clientStatusId, chosen.clientStat);
              return null;
            }}
          />
        ) : null}
      </Suspense>
    </div>
  );
}
