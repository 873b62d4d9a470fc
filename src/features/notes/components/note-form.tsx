import { type FormEvent, useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  type NoteFormField,
  type NoteFormValues,
  noteFormErrors,
} from '../../../../contract/lead-status-rules';
import { messages } from '../../../../contract/messages';
import type {
  CallStatusOption,
  ClientStatusOption,
  ConfigurationOption,
  LocationOption,
} from '../../../../contract/options';

export interface NoteOptions {
  callStatuses: CallStatusOption[];
  clientStatuses: ClientStatusOption[];
  locations: LocationOption[];
  configurations: ConfigurationOption[];
}

export interface SavedNote {
  callStatusId: number;
  clientStatusId: number;
  /** Spec §5: only the first chosen location and configuration are sent. */
  locationId: number;
  configurationId: number;
  notes: string;
}

interface NoteFormProps {
  options: NoteOptions;
  initialClientStatusId?: number | null;
  onSave: (note: SavedNote) => Promise<void> | void;
}

const TOAST = { duration: 2000 };

function toggle(list: number[], id: number): number[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/** The Add Note form of spec §2 with the checks of spec §5, in the spec's order. */
export function NoteForm({ options, initialClientStatusId, onSave }: NoteFormProps) {
  const id = useId();
  const [callStatusId, setCallStatusId] = useState<number | null>(null);
  const [clientStatusId, setClientStatusId] = useState<number | null>(initialClientStatusId ?? null);
  const [locationIds, setLocationIds] = useState<number[]>([]);
  const [configurationIds, setConfigurationIds] = useState<number[]>([]);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<NoteFormField, string>>>({});
  const [saving, setSaving] = useState(false);

  const clear = (field: NoteFormField) => setErrors(({ [field]: _, ...rest }) => rest);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = {
      callStatusId,
      clientStatusId,
      locationIds,
      configurationIds,
      description,
    } as NoteFormValues;
    const found = noteFormErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      toast.error(messages.board.fixErrors, TOAST);
      return;
    }
    setSaving(true);
    try {
      await onSave({
        callStatusId: callStatusId!,
        clientStatusId: clientStatusId!,
        locationId: locationIds[0]!,
        configurationId: configurationIds[0]!,
        notes: description.trim(),
      });
      setDescription('');
    } finally {
      setSaving(false);
    }
  }

  const errorProps = (field: NoteFormField) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` } : {};
  const errorText = (field: NoteFormField) =>
    errors[field] ? (
      <p className="field-error" id={`${id}-${field}-error`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form className="note-form" onSubmit={submit} noValidate>
      <div className="note-form-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-call`}>
            Call Status
          </label>
          <select
            id={`${id}-call`}
            className="input select"
            value={callStatusId ?? ''}
            onChange={(e) => {
              setCallStatusId(e.target.value ? Number(e.target.value) : null);
              clear('callStatusId');
            }}
            {...errorProps('callStatusId')}
          >
            <option value="">Select call status</option>
            {options.callStatuses.map((o) => (
              <option key={o.callStatusId} value={o.callStatusId}>
                {o.callStat}
              </option>
            ))}
          </select>
          {errorText('callStatusId')}
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-client`}>
            Client Status
          </label>
          <select
            id={`${id}-client`}
            className="input select"
            value={clientStatusId ?? ''}
            onChange={(e) => {
              setClientStatusId(e.target.value ? Number(e.target.value) : null);
              clear('clientStatusId');
            }}
            {...errorProps('clientStatusId')}
          >
            <option value="">Select client status</option>
            {options.clientStatuses.map((o) => (
              <option key={o.clientStatusId} value={o.clientStatusId}>
                {o.clientStat}
              </option>
            ))}
          </select>
          {errorText('clientStatusId')}
        </div>
      </div>

      <div className="note-form-row">
        <fieldset className="check-list-field" {...errorProps('locationIds')}>
          <legend className="field-label">Location</legend>
          <div className="check-list">
            {options.locations.map((o) => (
              <label key={o.locationId} className="check">
                <input
                  type="checkbox"
                  checked={locationIds.includes(o.locationId)}
                  onChange={() => {
                    setLocationIds((list) => toggle(list, o.locationId));
                    clear('locationIds');
                  }}
                />
                {o.locationName}
              </label>
            ))}
          </div>
          {errorText('locationIds')}
        </fieldset>
        <fieldset className="check-list-field" {...errorProps('configurationIds')}>
          <legend className="field-label">Configuration</legend>
          <div className="check-list">
            {options.configurations.map((o) => (
              <label key={o.configurationId} className="check">
                <input
                  type="checkbox"
                  checked={configurationIds.includes(o.configurationId)}
                  onChange={() => {
                    setConfigurationIds((list) => toggle(list, o.configurationId));
                    clear('configurationIds');
                  }}
                />
                {o.configurationType}
              </label>
            ))}
          </div>
          {errorText('configurationIds')}
        </fieldset>
      </div>

      <div className="field">
        <label className="field-label" htmlFor={`${id}-description`}>
          Description
        </label>
        <textarea
          id={`${id}-description`}
          className="input note-description"
          rows={3}
          maxLength={4000}
          value={description}
          onChange={(e) => {
            setDescription(e.target.value);
            clear('description');
          }}
          {...errorProps('description')}
        />
        {errorText('description')}
      </div>

      <div>
        <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving}>
          Save Note
        </button>
      </div>
    </form>
  );
}
