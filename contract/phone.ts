// Phone rules shared by imports, the admin forms and the employee board. Kept free of zod so the
// board's bundle can use them (issue 7).

export const phoneMessages = {
  phoneRule: 'Phone number must have 10 digits.',
} as const;

/**
 * A phone as 10 digits (DESIGN.md §4): spaces, dashes, dots and brackets go, and so does a
 * +91 / 91 / 0 prefix. Anything else answers null.
 */
export function normalisePhone(raw: string): string | null {
  let digits = raw.trim().replace(/[\s\-.()]/g, '');
  if (digits.startsWith('+91')) digits = digits.slice(3);
  else if (/^91\d{10}$/.test(digits)) digits = digits.slice(2);
  else if (/^0\d{10}$/.test(digits)) digits = digits.slice(1);
  return /^\d{10}$/.test(digits) ? digits : null;
}
