import { useState } from 'react';
import toast from 'react-hot-toast';
import { fetchRejectedRows, type ImportResult } from '../api/imports';
import { formatCount } from '../lib/format';
import { saveInvalidLeads, saveInvalidLeadsBlob } from '../lib/invalid-leads-file';

const when = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The lasting result of the latest import (issue 19): the toasts of spec §8 close after 2.5 s,
 * this stays, and it is read back from the import history when the dashboard opens again.
 */
/** An import's counts as labelled figures: the result panel's and the wizard's preview. */
export function ImportFacts({ facts }: { facts: readonly (readonly [string, number])[] }) {
  return (
    <dl className="import-result-facts">
      {facts.map(([label, value]) => (
        <div key={label} className="import-result-fact">
          <dt>{label}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ImportResultPanel({ result }: { result: ImportResult }) {
  const [downloading, setDownloading] = useState(false);
  const rejected = result.duplicatesInFile + result.duplicatesInSystem + result.invalid;

  const download = async () => {
    if (result.invalidFile) return saveInvalidLeads(result.invalidFile);
    if (result.importId === null) return;
    setDownloading(true);
    try {
      saveInvalidLeadsBlob(await fetchRejectedRows(result.importId));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setDownloading(false);
    }
  };

  const facts: [string, number][] = [
    ['Rows read', result.totalRows],
    ['Inserted', result.inserted],
    ...(result.updated > 0
      ? [['Existing leads with empty fields filled', result.updated] as [string, number]]
      : []),
    ['Repeated in the file', result.duplicatesInFile],
    ['Already in the system', result.duplicatesInSystem],
    ['No usable phone', result.invalid],
    ['Kept with a warning', result.warnings],
  ];
  return (
    <section className="import-result" aria-label="Last import">
      <h2 className="import-result-title">
        Last import: <span className="import-result-file">{result.fileName}</span>
      </h2>
      {result.createdAt ? (
        <p className="muted import-result-when">
          {when.format(new Date(result.createdAt))}
          {result.createdBy ? ` by ${result.createdBy}` : ''}
        </p>
      ) : null}
      {result.sheet && result.sheet.sheets.length > 1 ? (
        <p className="muted import-result-when">Read sheet “{result.sheet.name}”.</p>
      ) : null}
      <ImportFacts facts={facts} />
      {result.assignedTo.length > 0 ? (
        <p className="import-result-assigned">
          Auto-assigned: {result.assignedTo.map((a) => `${a.email} ${formatCount(a.count)}`).join(' · ')}
        </p>
      ) : null}
      {result.message ? <p className="import-result-assigned">{result.message}</p> : null}
      {result.hasRejectedRows ? (
        <div className="import-result-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={download}
            disabled={downloading}
            aria-busy={downloading}
          >
            Download Invalid Leads
          </button>
          <span className="muted">
            {formatCount(rejected)} rejected {rejected === 1 ? 'row' : 'rows'}, each with its row number and
            reason
          </span>
        </div>
      ) : null}
    </section>
  );
}
