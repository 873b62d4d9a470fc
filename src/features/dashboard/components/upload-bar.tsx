import { useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { isSpreadsheetName, type UploadResponse } from '../../../../contract/admin';
import { messages } from '../../../../contract/messages';
import { type UploadProgress, uploadLeads } from '../api/upload-leads';
import { saveInvalidLeads } from '../lib/invalid-leads-file';
import { UploadProgressBar } from './upload-progress';

const m = messages.upload;
export const TEMPLATE_URL = '/templates/leads-template.xlsx';

export function uploadSummary(answer: UploadResponse): string {
  const summary =
    `Total Rows: ${answer.totalRows}, Inserted: ${answer.inserted}, ` +
    `Skipped: ${answer.skipped}, Auto-assign: ${answer.autoAssigned ? 'yes' : 'no'}`;
  return answer.message ? `${summary}. ${answer.message}` : summary;
}

/** Spec §2 upload bar: auto-assign, file, Upload Leads, and the rejected rows when there are any. */
export function UploadBar({ onUploaded }: { onUploaded: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [autoAssign, setAutoAssign] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [invalidFile, setInvalidFile] = useState<string | null>(null);

  const upload = async () => {
    if (!file) return void toast.error(m.noFile);
    if (!isSpreadsheetName(file.name)) return void toast.error(m.wrongType);
    setInvalidFile(null);
    setProgress({ phase: 'uploading', percent: 0 });
    try {
      const answer = await uploadLeads(file, autoAssign, setProgress);
      toast(uploadSummary(answer), { icon: 'ℹ️' });
      setInvalidFile(answer.invalidFile ?? null);
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
          accept=".xls,.xlsx"
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
        {invalidFile ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => saveInvalidLeads(invalidFile)}
          >
            Download Invalid Leads
          </button>
        ) : null}
        <a className="upload-template" href={TEMPLATE_URL} download="leads-template.xlsx">
          Download template
        </a>
      </div>
      {progress ? <UploadProgressBar progress={progress} /> : null}
    </section>
  );
}
