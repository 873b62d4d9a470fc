import { useEffect, useState } from 'react';
import { emailField } from '../../../../contract/auth';
import { checkDuplicate, type DuplicateField } from '../api/check-duplicate';

// Spec §9: checks wait for a 500 ms pause in typing.
export const DUPLICATE_CHECK_DELAY_MS = 500;

// Asking about half-typed values only costs requests; the answer could not be "exists" anyway.
const wellFormed: Record<DuplicateField, (value: string) => boolean> = {
  email: (value) => emailField.safeParse(value).success,
  contact: (value) => /^\d{10}$/.test(value),
  adharNo: (value) => /^\d{12}$/.test(value),
};

/** Whether `value` is already taken, per the server's live duplicate check. */
export function useDuplicateCheck(field: DuplicateField, value: string, enabled: boolean): boolean {
  const [answer, setAnswer] = useState<{ value: string; exists: boolean } | null>(null);
  const trimmed = field === 'email' ? value.trim() : value;

  useEffect(() => {
    if (!enabled || !wellFormed[field](trimmed)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkDuplicate(field, trimmed, controller.signal)
        .then((exists) => setAnswer({ value: trimmed, exists }))
        .catch((error: unknown) => {
          // Spec §8: a failed check (signed out, offline) is only logged; submit still validates.
          if (!controller.signal.aborted) console.warn(`Duplicate check for ${field} failed`, error);
        });
    }, DUPLICATE_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [field, trimmed, enabled]);

  return answer !== null && answer.value === trimmed && answer.exists;
}
