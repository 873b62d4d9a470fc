import type { Period, PeriodKind } from '../lib/period';

const choices: { kind: PeriodKind; label: string }[] = [
  { kind: 'today', label: 'Today' },
  { kind: '7d', label: '7 days' },
  { kind: '30d', label: '30 days' },
  { kind: 'custom', label: 'Custom' },
];

export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  return (
    <fieldset className="manager-period">
      <legend className="visually-hidden">Period</legend>
      <div className="manager-period-choices">
        {choices.map((c) => (
          <label key={c.kind} className="manager-period-choice" data-checked={period.kind === c.kind}>
            <input
              type="radio"
              name="period"
              className="visually-hidden"
              checked={period.kind === c.kind}
              onChange={() => onChange({ ...period, kind: c.kind })}
            />
            {c.label}
          </label>
        ))}
      </div>
      {period.kind === 'custom' ? (
        <div className="manager-period-custom">
          <label className="field">
            <span className="field-label">From</span>
            <input
              type="date"
              className="input"
              value={period.customFrom}
              onChange={(e) => onChange({ ...period, customFrom: e.target.value })}
            />
          </label>
          <label className="field">
            <span className="field-label">To</span>
            <input
              type="date"
              className="input"
              value={period.customTo}
              onChange={(e) => onChange({ ...period, customTo: e.target.value })}
            />
          </label>
        </div>
      ) : null}
    </fieldset>
  );
}
