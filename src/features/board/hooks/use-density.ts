import { useCallback, useState } from 'react';
import type { Density } from '../components/density-toggle';

const DENSITY_KEY = 'leadnest.boardDensity';

function readDensity(): Density {
  try {
    return localStorage.getItem(DENSITY_KEY) === 'compact' ? 'compact' : 'regular';
  } catch {
    return 'regular';
  }
}

/** The card density, remembered on this device. */
export function useDensity() {
  const [density, setDensity] = useState<Density>(readDensity);
  const choose = useCallback((next: Density) => {
    setDensity(next);
    try {
      localStorage.setItem(DENSITY_KEY, next);
    } catch {
      // Not remembered; the choice still applies now.
    }
  }, []);
  return [density, choose] as const;
}
