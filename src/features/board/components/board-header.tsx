import { syncMessages } from '../../../../contract/sync';
import { type Density, DensityToggle } from './density-toggle';

interface BoardHeaderProps {
  welcome: string;
  density: Density;
  onDensity: (density: Density) => void;
  firstColumn: string;
  onAddLead: (initialStatus: string | null) => void;
  onLogout: () => void;
  pending: number;
  online: boolean;
}

export function BoardHeader({
  welcome,
  density,
  onDensity,
  firstColumn,
  onAddLead,
  onLogout,
  pending,
  online,
}: BoardHeaderProps) {
  return (
    <header className="board-header">
      <div className="board-heading">
        <p className="board-welcome">Welcome, {welcome}</p>
        <p className="sync-status" role="status" aria-live="polite">
          {!online ? <span className="offline-mark">Offline</span> : null}
          {pending > 0 ? <span>{syncMessages.waiting(pending)}</span> : null}
        </p>
      </div>
      <div className="board-toolbar">
        <DensityToggle density={density} onDensity={onDensity} />
        <button type="button" className="button button-primary" onClick={() => onAddLead(null)}>
          + Add Lead
        </button>
        <button type="button" className="button button-secondary" onClick={() => onAddLead(firstColumn)}>
          Add to {firstColumn}
        </button>
        <button type="button" className="button button-secondary" onClick={onLogout}>
          Logout
        </button>
      </div>
    </header>
  );
}
