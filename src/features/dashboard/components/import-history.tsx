import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { ImportHistoryItem } from '../../../../contract/admin';
import { fetchImports, fetchRejectedRows, undoImport } from '../api/imports';
import { formatCount } from '../lib/format';
import { saveInvalidLeadsBlob } from '../lib/invalid-leads-file';

const when = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
export const UNDO_CONFIRM =
  'Undo this import? Its leads that nobody has worked yet (no status, note or reminder) are removed, ' +
  'and fields it filled on existing leads are emptied again unless someone changed them since.';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function ImportEntry({ item, onUndone }: { item: ImportHistoryItem; onUndone: () => void }) {
  const [busy, setBusy] = useState(false);
  const rejected = item.duplicatesInFile + item.duplicatesInSystem + item.invalid;

  const download = async () => {
    setBusy(true);
    try {
      saveInvalidLeadsBlob(await fetchRejectedRows(item.importId));
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const undo = async () => {
    if (!window.confirm(UNDO_CONFIRM)) return;
    setBusy(true);
    try {
      toast.success((await undoImport(item.importId)).message);
      onUndone();
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="import-entry">
      <div className="import-entry-head">
        <strong className="import-entry-file">{item.fileName}</strong>
        <span className="muted">
          {when.format(new Date(item.createdAt))} by {item.createdBy}
          {item.undoneAt ? ` · undone ${when.format(new Date(item.undoneAt))}` : ''}
        </span>
      </div>
      <p className="import-entry-counts">
        {formatCount(item.totalRows)} rows · {formatCount(item.inserted)} inserted
        {item.updated > 0 ? ` · ${formatCount(item.updated)} updated` : ''} · {formatCount(rejected)} rejected
        {item.warnings > 0 ? ` · ${formatCount(item.warnings)} with a warning` : ''}
      </p>
      {item.assignedTo.length > 0 ? (
        <p className="import-entry-counts muted">
          {item.assignedTo.map((a) => `${a.email} ${formatCount(a.count)}`).join(' · ')}
        </p>
      ) : null}
      <div className="import-entry-actions">
        {item.hasRejectedRows ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={download}
            disabled={busy}
            aria-label={`Download rejected rows of ${item.fileName}`}
          >
            Rejected rows
          </button>
        ) : null}
        {item.undoneAt === null && item.inserted + item.updated > 0 ? (
          <button
            type="button"
            className="button button-secondary"
            onClick={undo}
            disabled={busy}
            aria-label={`Undo import of ${item.fileName}`}
          >
            Undo
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** Every import, newest first, with its rejected rows and an undo (issue 19). */
export function ImportHistory({ reloadKey, onUndone }: { reloadKey: number; onUndone: () => void }) {
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<ImportHistoryItem[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    fetchImports().then(setItems, () => setFailed(true));
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is the "load again" signal.
  useEffect(() => {
    if (open) load();
  }, [open, load, reloadKey]);

  return (
    <details className="import-history" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Import history</summary>
      {failed ? (
        <p className="muted">The import history could not be loaded.</p>
      ) : items === null ? (
        <p className="muted">Loading imports…</p>
      ) : items.length === 0 ? (
        <p className="muted">No imports yet.</p>
      ) : (
        <ul className="import-entries">
          {items.map((item) => (
            <ImportEntry
              key={item.importId}
              item={item}
              onUndone={() => {
                load();
                onUndone();
              }}
            />
          ))}
        </ul>
      )}
    </details>
  );
}
