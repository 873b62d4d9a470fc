import { HeaderPortal } from '../../../components/ui/header-slots';
import { BoardHeader } from './board-header';
import { type Density, DensityToggle } from './density-toggle';
import { PhoneBar } from './phone-bar';
import { SyncState } from './sync-state';

interface BoardChromeProps {
  phone: boolean;
  welcome: string;
  density: Density;
  onDensity: (density: Density) => void;
  firstColumn: string;
  onAddLead: (initialStatus: string | null) => void;
  onLogout: () => void;
  pending: number;
  attention: number;
  online: boolean;
}

function showAttention() {
  const panel = document.getElementById('needs-attention-title');
  panel?.scrollIntoView({ block: 'start' });
  panel?.closest('section')?.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
}

/**
 * The board's controls. A desktop keeps the spec's header; a phone (issue 18) puts the sync
 * state in the app's header, the density in its menu (beside the greeting and Logout there),
 * and Add Lead / Add to at the bottom, within thumb reach.
 */
export function BoardChrome({ phone, attention, ...props }: BoardChromeProps) {
  if (!phone) return <BoardHeader {...props} />;
  return (
    <>
      <HeaderPortal slot="status">
        <SyncState
          online={props.online}
          pending={props.pending}
          attention={attention}
          onAttention={showAttention}
        />
      </HeaderPortal>
      <HeaderPortal slot="menu">
        <p className="nav-menu-label" aria-hidden="true">
          Card density
        </p>
        <DensityToggle density={props.density} onDensity={props.onDensity} />
      </HeaderPortal>
      <PhoneBar firstColumn={props.firstColumn} onAddLead={props.onAddLead} />
    </>
  );
}
