import { useId, useState } from 'react';
import { syncMessages } from '../../../../contract/sync';
import type { OutboxRow } from '../../../lib/db';

interface NeedsAttentionProps {
  rows: readonly OutboxRow[];
  onEdit: (row: OutboxRow, payload: Record<string, unknown>) => void;
  onRetry: (row: OutboxRow) => void;
  onDiscard: (row: OutboxRow) => void;
}

const kindLabel: Record<OutboxRow['kind'], string> = {
  status: 'Move',
  note: 'Note',
  reminder: 'Reminder',
  lead: 'New lead',
  'reminder-update': 'Reminder',
};

// The typed fields a person may correct before sending again.
const editable: Record<string, string> = {
  notes: 'Description',
  name: 'Name',
  phoneNo: 'Phone',
  email: 'Email',
  note: 'Note',
};

function EditForm({
  row,
  onSave,
  onCancel,
}: {
  row: OutboxRow;
  onSave: (p: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const fields = Object.keys(editable).filter((k) => typeof row.payload[k] === 'string');
  const [values, setValues] = useState(() =>
    Object.fromEntries(fields.map((k) => [k, String(row.payload[k])])),
  );
  return (
    <form
      className="attention-edit"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ ...row.payload, ...values });
      }}
    >
      {fields.map((k) => (
        <div key={k} className="field">
          <label className="field-label" htmlFor={`${id}-${k}`}>
            {editable[k]}
          </label>
          {k === 'notes' ? (
            <textarea
              id={`${id}-${k}`}
              className="input"
              rows={3}
              value={values[k]}
              onChange={(e) => setValues({ ...values, [k]: e.target.value })}
            />
          ) : (
            <input
              id={`${id}-${k}`}
              className="input"
              value={values[k]}
              onChange={(e) => setValues({ ...values, [k]: e.target.value })}
            />
          )}
        </div>
      ))}
      <div className="attention-actions">
        <button type="submit" className="button button-primary">
          Save and send
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** DESIGN.md §5: refused changes wait here with the server's reason; nothing typed is lost. */
export function NeedsAttention({ rows, onEdit, onRetry, onDiscard }: NeedsAttentionProps) {
  const [editing, setEditing] = useState<string | null>(null);
  if (rows.length === 0) return null;
  return (
    <section className="attention-panel" aria-labelledby="needs-attention-title">
      <h2 id="needs-attention-title" className="panel-title">
        {syncMessages.needsAttention} ({rows.length})
      </h2>
      <ul className="attention-list">
        {rows.map((row) => {
          const text = ['notes', 'name', 'note']
            .map((k) => row.payload[k])
            .find((v) => typeof v === 'string' && v);
          return (
            <li key={row.id} className="attention-item">
              <p>
                <strong>{kindLabel[row.kind]}</strong> · {row.leadName}
                {row.statusName ? ` → ${row.statusName}` : ''}
              </p>
              {text ? <p className="attention-text">“{String(text)}”</p> : null}
              <p className="field-error">{row.error}</p>
              {editing === row.id ? (
                <EditForm
                  row={row}
                  onCancel={() => setEditing(null)}
                  onSave={(payload) => {
                    setEditing(null);
                    onEdit(row, payload);
                  }}
                />
              ) : (
                <div className="attention-actions">
                  {Object.keys(editable).some((k) => typeof row.payload[k] === 'string') ? (
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => setEditing(row.id)}
                    >
                      {syncMessages.edit}
                    </button>
                  ) : null}
                  <button type="button" className="button button-secondary" onClick={() => onRetry(row)}>
                    {syncMessages.retry}
                  </button>
                  <button type="button" className="button button-secondary" onClick={() => onDiscard(row)}>
                    {syncMessages.discard}
                  </button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
