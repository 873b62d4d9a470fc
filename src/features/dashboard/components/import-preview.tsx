import {
  COLUMN_MEANINGS,
  type ColumnMeaning,
  columnMeaningLabels,
  type ImportPreview,
} from '../../../../contract/import-wizard';
import { ImportFacts } from './import-result';

// The import wizard's preview (issue 19): how the file was read, the choices that change it, the
// counts a commit would give (once counted) and the first rows as they will be stored.

/**
 * A stored visit as the agency's wall clock reads it, day first: "2026-02-01T11:00:00+05:30" is
 * 01/02/2026 11:00 wherever the admin's browser is; a date alone stays a date.
 */
export function visitText(iso: string | null): string {
  if (!iso) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}:\d{2}))?/.exec(iso);
  if (!m) return iso;
  return `${m[3]}/${m[2]}/${m[1]}${m[4] ? ` ${m[4]}` : ''}`;
}

export function PreviewView({
  preview,
  disabled,
  counting,
  onSheet,
  onDateFormat,
  onDuplicates,
  onMeaning,
}: {
  preview: ImportPreview;
  disabled: boolean;
  counting: boolean;
  onSheet: (index: number) => void;
  onDateFormat: (format: 'dayFirst' | 'monthFirst') => void;
  onDuplicates: (mode: 'skip' | 'update') => void;
  onMeaning: (index: number, meaning: ColumnMeaning) => void;
}) {
  const { counts } = preview;
  const facts: [string, number][] = !counts
    ? []
    : [
        ['Rows read', counts.totalRows],
        ['Would be inserted', counts.inserted],
        ...(preview.duplicates === 'update'
          ? [['Would fill empty fields of existing leads', counts.updated] as [string, number]]
          : []),
        ['Repeated in the file', counts.duplicatesInFile],
        [
          preview.duplicates === 'update' ? 'Already in the system, nothing to add' : 'Already in the system',
          counts.duplicatesInSystem,
        ],
        ['No usable phone', counts.invalid],
        ['Kept with a warning', counts.warnings],
      ];
  return (
    <section className="wizard-preview" aria-label="Preview">
      <p>
        Sheet <strong>{preview.sheet.name}</strong> — {preview.sheet.why} Header on row {preview.headerRow}.
        {preview.remembered ? ' Columns as you mapped them last time.' : ''} Nothing is saved until you
        import.
      </p>
      <div className="upload-controls">
        {preview.sheet.sheets.length > 1 ? (
          <label>
            Sheet{' '}
            <select
              value={preview.sheet.index}
              disabled={disabled}
              onChange={(e) => onSheet(Number(e.target.value))}
            >
              {preview.sheet.sheets.map((name, i) => (
                <option key={name} value={i}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Dates{' '}
          <select
            value={preview.dateFormat}
            disabled={disabled}
            onChange={(e) => onDateFormat(e.target.value as 'dayFirst' | 'monthFirst')}
          >
            <option value="dayFirst">Day first (05/01 = 5 January)</option>
            <option value="monthFirst">Month first (05/01 = 1 May)</option>
          </select>
        </label>
        <label>
          Phones already in the system{' '}
          <select
            value={preview.duplicates}
            disabled={disabled}
            onChange={(e) => onDuplicates(e.target.value as 'skip' | 'update')}
          >
            <option value="skip">Skip the row</option>
            <option value="update">Fill the existing lead's empty fields</option>
          </select>
        </label>
      </div>
      {counts ? null : (
        <p className="wizard-busy" role="status">
          {counting ? (
            <>
              <progress aria-label="Counting rows" /> Counting every row of the file…
            </>
          ) : (
            'The counts could not be read: change a choice above to try again.'
          )}
        </p>
      )}
      <ImportFacts facts={facts} />
      <div className="wizard-columns">
        <table>
          <caption>Columns</caption>
          <thead>
            <tr>
              <th scope="col">Column in the file</th>
              <th scope="col">Read as</th>
            </tr>
          </thead>
          <tbody>
            {preview.columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positions in the sheet.
              <tr key={i}>
                <td>{column.header || `(column ${i + 1})`}</td>
                <td>
                  <select
                    aria-label={`Read "${column.header}" as`}
                    value={column.meaning}
                    disabled={disabled}
                    onChange={(e) => onMeaning(i, e.target.value as ColumnMeaning)}
                  >
                    {COLUMN_MEANINGS.map((m) => (
                      <option key={m} value={m}>
                        {columnMeaningLabels[m]}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="wizard-samples">
        <table>
          <caption>First rows as they will be stored</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Name</th>
              <th scope="col">Phone</th>
              <th scope="col">Email</th>
              <th scope="col">Configuration</th>
              <th scope="col">Visit</th>
              <th scope="col">Campaign</th>
              <th scope="col">Location</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {preview.samples.map((s) => (
              <tr key={s.row}>
                <td>{s.row}</td>
                <td>{s.name}</td>
                <td>{s.phone}</td>
                <td>{s.email}</td>
                <td>{s.configuration}</td>
                <td>{visitText(s.visitDateTime)}</td>
                <td>{s.siteVisit}</td>
                <td>{s.location}</td>
                <td>{s.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
