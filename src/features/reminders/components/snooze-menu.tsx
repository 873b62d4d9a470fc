import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { todayMessages as t } from '../../../../contract/today-messages';
import { HOUR_MS, later, toLocalInput, tomorrowAtTen } from '../lib/follow-ups';

interface SnoozeMenuProps {
  leadName: string;
  onSnooze: (until: Date) => void;
}

/** Snooze: 1 h, tomorrow 10:00, or a time the employee picks (the note modal's kind of input). */
export function SnoozeMenu({ leadName, onSnooze }: SnoozeMenuProps) {
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState(false);
  const [value, setValue] = useState('');
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  useEffect(() => {
    if (picking) input.current?.focus();
  }, [picking]);

  const close = () => {
    setOpen(false);
    setPicking(false);
  };
  const choose = (until: Date) => {
    close();
    onSnooze(until);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      button.current?.focus();
    } else if (!picking && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  const pick = () => {
    const until = value ? new Date(value) : null;
    if (!until || Number.isNaN(until.getTime()) || until.getTime() <= Date.now()) {
      toast.error(t.snoozeTimeNeeded, { duration: 2000 });
      return;
    }
    choose(until);
  };

  return (
    <div className="move-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="button button-secondary card-action"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`${t.snooze} ${leadName}`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {t.snooze}
      </button>
      {open ? (
        <div
          id={menuId}
          className="move-menu-list snooze-menu-list"
          role="menu"
          aria-label={`${t.snooze} ${leadName}`}
          onKeyDown={onKeyDown}
        >
          {picking ? (
            <div className="snooze-pick">
              <label className="field-label" htmlFor={`${menuId}-time`}>
                Snooze until
              </label>
              <input
                ref={input}
                id={`${menuId}-time`}
                className="input"
                type="datetime-local"
                min={toLocalInput(new Date())}
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
              <button type="button" className="button button-primary" onClick={pick}>
                Save
              </button>
            </div>
          ) : (
            <>
              <button
                type="button"
                role="menuitem"
                className="move-menu-item"
                onClick={() => choose(later(Date.now(), HOUR_MS))}
              >
                {t.snoozeInHour}
              </button>
              <button
                type="button"
                role="menuitem"
                className="move-menu-item"
                onClick={() => choose(tomorrowAtTen(Date.now()))}
              >
                {t.snoozeTomorrow}
              </button>
              <button
                type="button"
                role="menuitem"
                className="move-menu-item"
                onClick={() => {
                  setValue(toLocalInput(later(Date.now(), HOUR_MS)));
                  setPicking(true);
                }}
              >
                {t.snoozePick}
              </button>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
