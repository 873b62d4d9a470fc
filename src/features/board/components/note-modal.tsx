import { leadStatusMessages } from '../../../../contract/lead-status-rules';
import type { CachedLead } from '../../../lib/db';
import { LastSaved } from '../../notes/components/last-saved';
import { NoteForm, type NoteOptions, type SavedNote } from '../../notes/components/note-form';
import { NoteHistory } from '../../notes/components/note-history';
import { ReminderForm } from '../../reminders/components/reminder-form';
import { Modal } from './modal';

interface NoteModalProps {
  lead: CachedLead;
  options: NoteOptions;
  initialClientStatusId: number | null;
  /** The column the lead goes to when this note is saved, when the note is what a move waits for. */
  moveTo: string | null;
  lastSaved: SavedNote | null;
  waitingNotes: readonly { id: string; text: string }[];
  onSave: (note: SavedNote) => Promise<void>;
  onSetReminder: (reminder: { reminderTime: string; employeeEmail: string }) => Promise<void>;
  onClose: () => void;
}

/** Spec §2 Add Note modal (large, titled with the lead number), with the lead's earlier notes. */
export function NoteModal({
  lead,
  options,
  initialClientStatusId,
  moveTo,
  lastSaved,
  waitingNotes,
  onSave,
  onSetReminder,
  onClose,
}: NoteModalProps) {
  const title = lead.leadID > 0 ? `Add Note — Lead #${lead.leadID}` : 'Add Note — new lead (not synced yet)';
  return (
    <Modal title={title} size="large" onClose={onClose}>
      <p className="note-modal-lead">
        <strong>{lead.name}</strong>
        {lead.phoneNo ? <span className="muted"> · {lead.phoneNo}</span> : null}
      </p>
      {moveTo && !lastSaved ? (
        <p className="notice notice-info note-move-notice">
          {leadStatusMessages.firstNoteMoves(lead.name, moveTo)}
        </p>
      ) : null}
      <NoteForm options={options} initialClientStatusId={initialClientStatusId} onSave={onSave} />
      <ReminderForm enabled={lastSaved !== null} onSet={onSetReminder} />
      <LastSaved note={lastSaved} options={options} />
      <NoteHistory leadId={lead.leadID} waiting={waitingNotes} version={waitingNotes.length} />
    </Modal>
  );
}
