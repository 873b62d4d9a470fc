import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';

/**
 * Places in the signed-in header that the screen below may fill: on a phone the board puts its
 * sync state beside the brand and its own controls in the menu, so the first screen shows cards,
 * not chrome (issue 18). The header owns the places; the screen only renders into them.
 */
export type HeaderSlotName = 'status' | 'menu';

interface SlotsValue {
  elements: Partial<Record<HeaderSlotName, HTMLElement>>;
  register: (name: HeaderSlotName, element: HTMLElement | null) => void;
}

const SlotsContext = createContext<SlotsValue | null>(null);

export function HeaderSlotsProvider({ children }: { children: ReactNode }) {
  const [elements, setElements] = useState<SlotsValue['elements']>({});
  const register = useCallback((name: HeaderSlotName, element: HTMLElement | null) => {
    setElements((current) => {
      if ((current[name] ?? null) === element) return current;
      const next = { ...current };
      if (element) next[name] = element;
      else delete next[name];
      return next;
    });
  }, []);
  const value = useMemo(() => ({ elements, register }), [elements, register]);
  return <SlotsContext.Provider value={value}>{children}</SlotsContext.Provider>;
}

/** A ref for the header element that is the place `name`. */
export function useHeaderSlotRef(name: HeaderSlotName) {
  const register = useContext(SlotsContext)?.register;
  return useCallback((element: HTMLElement | null) => register?.(name, element), [register, name]);
}

/** Renders `children` into the header's place `slot`, or nothing while there is no such place. */
export function HeaderPortal({ slot, children }: { slot: HeaderSlotName; children: ReactNode }) {
  const element = useContext(SlotsContext)?.elements[slot];
  return element ? createPortal(children, element) : null;
}
