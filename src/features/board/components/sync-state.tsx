import { syncMessages } from '../../../../contract/sync';

interface SyncStateProps {
  online: boolean;
  pending: number;
  attention: number;
  /** Takes the user to the refused changes. */
  onAttention: () => void;
}

/**
 * The phone header's sync state (issue 18): Offline, N waiting, Needs attention — short enough
 * for one row beside the brand; a screen reader hears the full sentences.
 */
export function SyncState({ online, pending, attention, onAttention }: SyncStateProps) {
  return (
    <>
      <p className="sync-chips" role="status" aria-live="polite">
        {!online ? <span className="sync-chip sync-chip-offline">Offline</span> : null}
        {pending > 0 ? (
          <span className="sync-chip">
            <span aria-hidden="true">{pending} waiting</span>
            <span className="visually-hidden">{syncMessages.waiting(pending)}</span>
          </span>
        ) : null}
      </p>
      {attention > 0 ? (
        <button type="button" className="sync-chip sync-chip-attention" onClick={onAttention}>
          {syncMessages.needsAttention}
        </button>
      ) : null}
    </>
  );
}
