import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { isSpreadsheetName, type UploadResponse } from '../../../../contract/admin';
import { messages } from '../../../../contract/messages';
import { fetchImports, type ImportResult, resultOfHistory, resultOfUpload } from '../api/imports';
import { type UploadProgress, uploadLeads } from '../api/upload-leads';
import { ImportHistory } from './import-history';
import { ImportResultPanel } from './import-result';
import { ImportWizard } from './import-wizard';
import { UploadProgressBar } from './upload-progress';

const m = messages.upload;
export const TEMPLATE_URL = '/templates/leads-template.xlsx';

export function uploadSummary(answer: UploadResponse): string {
  const summary =
    `Total Rows: ${answer.totalRows}, Inserted: ${answer.inserted}, ` +
    `Skipped: ${answer.skipped}, Auto-assign: ${answer.autoAssigned ? 'yes' : 'no'}`;
  return answer.message ? `${summary}. ${answer.message}` : summary;
}

/**
 * Spec §2 upload bar: auto-assign, file, Upload Leads, and the rejected rows when there are any,
 * in the lasting panel of the latest import (issue 19).
 */
export function UploadBar({ onUploaded }: { onUploaded: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [autoAssign, setAutoAssign] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [imports, setImports] = useState(0);

  // The latest import stays on show, rejected rows included, after the page is left (issue 19).
  useEffect(() => {
    let current = true;
    fetchImports()
      .then((history) => {
        const latest = history[0];
        if (current && latest) setResult((shown) => shown ?? resultOfHistory(latest));
      })
      .catch(() => {
        // No panel until the next upload; the upload itself still works.
      });
    return () => {
      current = false;
    };
  }, []);

  const upload = async () => {
    if (!file) return void toast.error(m.noFile);
    if (!isSpreadsheetName(file.name)) return void toast.error(m.wrongType);
    setProgress({ phase: 'uploading', percent: 0 });
    try {
      const answer = await uploadLeads(file, autoAssign, setProgress);
      toast(uploadSummary(answer), { icon: 'ℹ️' });
      setResult(resultOfUpload(answer, file.name));
      setImports((n) => n + 1);
      setFile(null);
      if (input.current) input.current.value = '';
      onUploaded();
    } catch (error) {
      toast.error(`${m.failed}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;
  return (
    <section className="panel upload-bar" aria-label="Upload leads">
      <div className="upload-controls">
        <label className="check">
          <input type="checkbox" checked={autoAssign} onChange={(e) => setAutoAssign(e.target.checked)} />
          Auto-assign after upload
        </label>
        <label className="visually-hidden" htmlFor={inputId}>
          Excel file
        </label>
        <input
          id={inputId}
          ref={input}
          className="file-input"
          type="file"
          accept=".xls,.xlsx,.csv"
          disabled={busy}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <button
          type="button"
          className="button button-primary"
          onClick={upload}
          disabled={busy}
          aria-busy={busy}
        >
          Upload Leads
        </button>
        <a className="upload-template" href={TEMPLATE_URL} download="leads-template.xlsx">
          Download template
        </a>
      </div>
      <ImportWizard
        onImported={(answer, fileName) => {
          toast(uploadSummary(answer), { icon: 'ℹ️' });
          setResult(resultOfUpload(answer, fileName));
          setImports((n) => n + 1);
          onUploaded();
        }}
      />
      {progress ? <UploadProgressBar progress={progress} /> : null}
      {result ? <ImportResultPanel result={result} /> : null}
      <ImportHistory reloadKey={imports} onUndone={onUploaded} />
    </section>
  );
}
