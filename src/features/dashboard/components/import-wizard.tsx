import { useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { isSpreadsheetName, type UploadResponse } from '../../../../contract/admin';
import {
  COLUMN_MEANINGS,
  type ColumnMeaning,
  columnMeaningLabels,
  type ImportMapping,
  type ImportPreview,
} from '../../../../contract/import-wizard';
import { messages } from '../../../../contract/messages';
import { commitImport, previewImport, startImport } from '../api/import-wizard';
import { formatCount } from '../lib/format';
import './import-wizard.css';

type Busy = null | 'reading' | 'importing';

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

/**
 * The import wizard (issue 19): the file is read on the server without writing anything, the
 * admin sees how each column was read and what a commit would do, changes what is wrong, and
 * imports. The spec's one-click Upload Leads stays beside it.
 */
export function ImportWizard({
  onImported,
}: {
  onImported: (answer: UploadResponse, fileName: string) => void;
}) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [autoAssign, setAutoAssign] = useState(true);
  const [busy, setBusy] = useState<Busy>(null);
  // Why the first preview read its sheet stays true until the admin picks another sheet.
  const [firstWhy, setFirstWhy] = useState<string | null>(null);
  // The exact counts follow the samples (a second pass on the server); only the latest counts.
  const [counting, setCounting] = useState(false);
  const latest = useRef(0);

  const mappingOf = (p: ImportPreview, change: Partial<ImportMapping> = {}): ImportMapping => ({
    sheet: p.sheet.index,
    columns: p.columns.map((c) => c.meaning),
    dateFormat: p.dateFormat,
    duplicates: p.duplicates,
    ...change,
  });

  const run = async (step: Exclude<Busy, null>, work: () => Promise<void>) => {
    setBusy(step);
    try {
      await work();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  /** Shows a preview; when its counts are still to come, asks for them and shows them after. */
  const show = (answer: ImportPreview) => {
    const asked = ++latest.current;
    setPreview(answer);
    if (answer.counts) return void setCounting(false);
    setCounting(true);
    previewImport(answer.draftId, mappingOf(answer))
      .then((exact) => {
        // Asked with the mapping spelled out: whether it was the remembered one is the first answer's.
        if (asked === latest.current) setPreview({ ...exact, remembered: answer.remembered });
      })
      .catch((error: unknown) => {
        if (asked === latest.current) toast.error(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        if (asked === latest.current) setCounting(false);
      });
  };

  const start = () => {
    if (!file) return void toast.error(messages.upload.noFile);
    if (!isSpreadsheetName(file.name)) return void toast.error(messages.upload.wrongType);
    void run('reading', async () => {
      const answer = await startImport(file);
      setFirstWhy(answer.sheet.why);
      show(answer);
    });
  };

  const remap = (change: Partial<ImportMapping>) => {
    if (!preview) return;
    // Another sheet has other columns: let the server find them again.
    const mapping =
      'sheet' in change
        ? { sheet: change.sheet, dateFormat: preview.dateFormat, duplicates: preview.duplicates }
        : mappingOf(preview, change);
    if ('sheet' in change) setFirstWhy(null);
    latest.current += 1;
    void run('reading', async () => show(await previewImport(preview.draftId, mapping, 'later')));
  };

  const commit = () => {
    if (!preview) return;
    latest.current += 1;
    void run('importing', async () => {
      const answer = await commitImport(preview.draftId, mappingOf(preview), autoAssign);
      onImported(answer, preview.fileName);
      setPreview(null);
      setFile(null);
    });
  };

  const setMeaning = (index: number, meaning: ColumnMeaning) =>
    remap({ columns: preview!.columns.map((c, i) => (i === index ? meaning : c.meaning)) });

  return (
    <details className="import-wizard">
      <summary>Import with preview</summary>
      <div className="upload-controls">
        <label htmlFor={fileId}>File to preview</label>
        <input
          id={fileId}
          className="file-input"
          type="file"
          accept=".xls,.xlsx,.csv"
          disabled={busy !== null}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setPreview(null);
          }}
        />
        <button type="button" className="button" onClick={start} disabled={busy !== null}>
          Preview
        </button>
      </div>
      {busy ? (
        <p className="wizard-busy" role="status">
          <progress aria-label={busy === 'reading' ? 'Reading the file' : 'Importing'} />{' '}
          {busy === 'reading'
            ? 'Reading the file…'
            : preview?.counts
              ? importingText(preview.counts)
              : 'Importing…'}
        </p>
      ) : null}
      {preview ? (
        <PreviewView
          preview={firstWhy ? { ...preview, sheet: { ...preview.sheet, why: firstWhy } } : preview}
          disabled={busy !== null}
          counting={counting}
          onSheet={(sheet) => remap({ sheet })}
          onDateFormat={(dateFormat) => remap({ dateFormat })}
          onDuplicates={(duplicates) => remap({ duplicates })}
          onMeaning={setMeaning}
        />
      ) : null}
      {preview ? (
        <div className="upload-controls">
          <label className="check">
            <input type="checkbox" checked={autoAssign} onChange={(e) => setAutoAssign(e.target.checked)} />
            Auto-assign
          </label>
          <button
            type="button"
            className="button button-primary"
            onClick={commit}
            disabled={
              busy !== null || !preview.counts || preview.counts.inserted + preview.counts.updated === 0
            }
          >
            {preview.counts ? commitLabel(preview.counts) : 'Counting rows…'}
          </button>
        </div>
      ) : null}
    </details>
  );
}

/** "Import 120 leads", "Import 120 leads and update 4", "Update 4 leads". */
export function commitLabel(counts: NonNullable<ImportPreview['counts']>): string {
  const leads = (n: number) => `${formatCount(n)} ${n === 1 ? 'lead' : 'leads'}`;
  if (counts.updated === 0) return `Import ${leads(counts.inserted)}`;
  if (counts.inserted === 0) return `Update ${leads(counts.updated)}`;
  return `Import ${leads(counts.inserted)} and update ${formatCount(counts.updated)}`;
}

/** While the commit runs: what it is doing, and that it is all or nothing (one transaction). */
function importingText(counts: NonNullable<ImportPreview['counts']>): string {
  const leads = (n: number) => `${formatCount(n)} ${n === 1 ? 'lead' : 'leads'}`;
  const doing =
    counts.updated === 0
      ? `Importing ${leads(counts.inserted)}`
      : counts.inserted === 0
        ? `Updating ${leads(counts.updated)}`
        : `Importing ${leads(counts.inserted)} and updating ${formatCount(counts.updated)}`;
  return `${doing}… All or nothing: if it stops, nothing is saved.`;
}

function PreviewView({
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
      <dl className="import-result-facts">
        {facts.map(([label, value]) => (
          <div key={label} className="import-result-fact">
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
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
