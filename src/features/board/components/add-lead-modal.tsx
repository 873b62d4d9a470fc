import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import { BOARD_TOAST } from '../hooks/use-board-actions';
import { NEW_LEADS } from '../lib/columns';
import { type NewLeadField, newLeadErrors } from '../lib/new-lead';
import { Modal } from './modal';

interface AddLeadModalProps {
  statusColumns: readonly string[];
  initialStatus: string | null;
  onClose: () => void;
  /** Resolves with an error to show in the form, or null when the lead was taken. */
  onSubmit: (values: {
    name: string;
    phoneNo: string;
    email: string;
    status: string | null;
  }) => Promise<string | null>;
}

type Field = NewLeadField;

/** Spec §2 "Add New Lead": Name, Phone, Email, Initial Status; the lead is the employee's own. */
export function AddLeadModal({ statusColumns, initialStatus, onClose, onSubmit }: AddLeadModalProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [phoneNo, setPhoneNo] = useState('');
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState(initialStatus ?? NEW_LEADS);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const found = newLeadErrors({ name, phoneNo, email });
    const first = Object.values(found)[0];
    if (first) {
      setErrors(found);
      toast.error(first, BOARD_TOAST);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const problem = await onSubmit({ name, phoneNo, email, status: status === NEW_LEADS ? null : status });
      if (problem) {
        setFormError(problem);
        toast.error(problem, BOARD_TOAST);
      }
    } finally {
      setBusy(false);
    }
  }

  const field = (
    key: Field,
    label: string,
    value: string,
    set: (v: string) => void,
    type: string,
    extra = {},
  ) => (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className="input"
        type={type}
        value={value}
        onChange={(e) => {
          set(e.target.value);
          setErrors(({ [key]: _, ...rest }) => rest);
        }}
        {...(errors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {})}
        {...extra}
      />
      {errors[key] ? (
        <p className="field-error" id={`${id}-${key}-error`}>
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  return (
    <Modal
      title="Add New Lead"
      onClose={onClose}
      footer={
        <button
          type="submit"
          form={`${id}-form`}
          className="button button-primary"
          disabled={busy}
          aria-busy={busy}
        >
          Add Lead
        </button>
      }
    >
      <form id={`${id}-form`} className="form" onSubmit={submit} noValidate>
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        {field('name', 'Name', name, setName, 'text', { autoComplete: 'off', maxLength: 200 })}
        {field('phoneNo', 'Phone', phoneNo, setPhoneNo, 'tel', { inputMode: 'tel', maxLength: 20 })}
        {field('email', 'Email', email, setEmail, 'email', { maxLength: 254 })}
        <div className="field">
          <label className="field-label" htmlFor={`${id}-status`}>
            Initial Status
          </label>
          <select
            id={`${id}-status`}
            className="input select"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
          >
            {[NEW_LEADS, ...statusColumns].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          {status !== NEW_LEADS ? (
            <p className="field-hint">A first note places the lead in {status}; the note form opens next.</p>
          ) : null}
        </div>
      </form>
    </Modal>
  );
}
