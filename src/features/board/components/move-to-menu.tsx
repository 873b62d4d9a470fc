import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';

interface MoveToMenuProps {
  leadName: string;
  /** Columns the lead can go to (never its own, never New Leads). */
  targets: readonly string[];
  onMove: (column: string) => void;
}

/** The way to move a card without dragging (keyboard, switch and screen-reader users, shaky hands). */
export function MoveToMenu({ leadName, targets, onMove }: MoveToMenuProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  if (targets.length === 0) return null;
  return (
    <div className="move-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="button button-secondary card-action"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Move ${leadName} to…`}
        onClick={() => setOpen((o) => !o)}
      >
        Move to…
      </button>
      {open ? (
        <div
          id={menuId}
          className="move-menu-list"
          role="menu"
          aria-label={`Move ${leadName} to`}
          onKeyDown={onKeyDown}
        >
          {targets.map((column) => (
            <button
              key={column}
              type="button"
              role="menuitem"
              className="move-menu-item"
              onClick={() => {
                setOpen(false);
                // Back on the button before a dialog opens for the move, so closing it returns here.
                button.current?.focus();
                onMove(column);
              }}
            >
              {column}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
