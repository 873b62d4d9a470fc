/** Splits a list into parts of at most `size`: IN lists and multi-row statements stay under the
 * databases' bound-parameter limits (SQLite 32,766, PostgreSQL 65,535). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
