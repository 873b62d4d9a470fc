import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { NOTES_MAX } from '../../../../contract/lead-status-rules';
import { messages } from '../../../../contract/messages';
import type { CallStatusOption, ClientStatusOption } from '../../../../contract/options';
import { BOARD_TOAST } from '../hooks/use-board-actions';
import type { OlderNote } from '../hooks/use-older-board-actions';

const m = messages.olderBoard;

interface Props {
  leadName: string;
  callStatuses: readonly CallStatusOption[];
  clientStatuses: readonly ClientStatusOption[];
  lastSaved: string | null;
  onSave: (note: OlderNote) => Promise<void>;
}

type Field = 'description' | 'callStatus' | 'clientStatus';

/** The older board's inline note (spec §2, §5): call status, client status, description. */
export function OlderNoteForm({ leadName, callStatuses, clientStatuses, lastSaved, onSave }: Props) {
  const id = useId();
  const [callStatusId, setCallStatusId] = useState('');
  const [clientStatusId, setClientStatusId] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);

  const clear = () => {
    setCallStatusId('');
    setClientStatusId('');
    setDescription('');
    setErrors({});
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!description.trim()) found.description = m.descriptionRequired;
    if (!callStatusId) found.callStatus = m.callStatusRequired;
    if (!clientStatusId) found.clientStatus = m.clientStatusRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toast.error(messages.board.fixErrors, BOARD_TOAST);
      return;
    }
    setSaving(true);
    try {
      await onSave({
        callStatusId: Number(callStatusId),
        clientStatusId: Number(clientStatusId),
        notes: description.trim(),
      });
      clear();
    } finally {
      setSaving(false);
    }
  }

  const described = (field: Field) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {};
  const error = (field: Field) =>
    errors[field] ? (
      <p className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form className="older-note" noValidate onSubmit={submit} aria-label={`Notes for ${leadName}`}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-call`}>
          Call Status
        </label>
        <select
          id={`${id}-call`}
          className="input select"
          value={callStatusId}
          onChange={(e) => setCallStatusId(e.target.value)}
          {...described('callStatus')}
        >
          <option value="">Select call status</option>
          {callStatuses.map((s) => (
            <option key={s.callStatusId} value={s.callStatusId}>
              {s.callStat}
            </option>
          ))}
        </select>
        {error('callStatus')}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-client`}>
          Client Status
        </label>
        <select
          id={`${id}-client`}
          className="input select"
          value={clientStatusId}
          onChange={(e) => setClientStatusId(e.target.value)}
          {...described('clientStatus')}
        >
          <option value="">Select client status</option>
          {clientStatuses.map((s) => (
            <option key={s.clientStatusId} value={s.clientStatusId}>
              {s.clientStat}
            </option>
          ))}
        </select>
        {error('clientStatus')}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-description`}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          className="input older-note-text"
          rows={3}
          maxLength={NOTES_MAX}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          {...described('description')}
        />
        {error('description')}
      </div>
      <div className="older-note-actions">
        <button
          type="submit"
          className="button button-primary card-action"
          disabled={saving}
          aria-busy={saving}
        >
          Save Note
        </button>
        <button type="button" className="button button-secondary card-action" onClick={clear}>
          Clear
        </button>
      </div>
      {lastSaved ? (
        <p className="older-note-last">
          <span className="field-label">Last saved: </span>
          {lastSaved}
        </p>
      ) : null}
    </form>
  );
}
