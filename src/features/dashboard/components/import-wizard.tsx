import { useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { isSpreadsheetName, type UploadResponse } from '../../../../contract/admin';
import type { ColumnMeaning, ImportMapping, ImportPreview } from '../../../../contract/import-wizard';
import { messages } from '../../../../contract/messages';
import { commitImport, previewImport, startImport } from '../api/import-wizard';
import { formatCount } from '../lib/format';
import { PreviewView } from './import-preview';
import './import-wizard.css';

type Busy = null | 'reading' | 'importing';

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
  // The exact counts follow the samples (the server reads on after answering); only the latest counts.
  const [counting, setCounting] = useState(false);
  // Rows below the header the commit has done, as the server streams it; null before the first.
  const [rowsDone, setRowsDone] = useState<number | null>(null);
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
    setRowsDone(null);
    void run('importing', async () => {
      const answer = await commitImport(preview.draftId, mappingOf(preview), autoAssign, setRowsDone);
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
          {busy === 'importing' && rowsDone !== null && preview?.counts ? (
            <progress
              aria-label="Importing"
              value={Math.min(rowsDone, preview.counts.totalRows)}
              max={preview.counts.totalRows}
            />
          ) : (
            <progress aria-label={busy === 'reading' ? 'Reading the file' : 'Importing'} />
          )}{' '}
          {busy === 'reading'
            ? 'Reading the file…'
            : preview?.counts
              ? importingText(preview.counts, rowsDone)
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
function importingText(counts: NonNullable<ImportPreview['counts']>, rowsDone: number | null): string {
  const leads = (n: number) => `${formatCount(n)} ${n === 1 ? 'lead' : 'leads'}`;
  const doing =
    counts.updated === 0
      ? `Importing ${leads(counts.inserted)}`
      : counts.inserted === 0
        ? `Updating ${leads(counts.updated)}`
        : `Importing ${leads(counts.inserted)} and updating ${formatCount(counts.updated)}`;
  const done =
    rowsDone === null
      ? ''
      : ` ${formatCount(Math.min(rowsDone, counts.totalRows))} of ${formatCount(counts.totalRows)} rows.`;
  return `${doing}…${done} All or nothing: if it stops, nothing is saved.`;
}
