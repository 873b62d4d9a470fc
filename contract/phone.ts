// Phone rules shared by imports, the admin forms and the employee board. Kept free of zod so the
// board's bundle can use them (issue 7).

export const phoneMessages = {
  phoneRule: 'Phone number must have 10 digits.',
} as const;

/** Spaces, dashes, dots and brackets go, and the `p:` Facebook lead ads put before a phone. */
function phoneDigits(raw: string): string {
  return raw
    .trim()
    .replace(/^(p|tel):/i, '')
    .replace(/[\s\-.()]/g, '');
}

/**
 * A phone as 10 digits (DESIGN.md §4): spaces, dashes, dots and brackets go, and so does a
 * +91 / 91 / 0 prefix and a `p:` (issue 19). Anything else answers null.
 */
export function normalisePhone(raw: string): string | null {
  let digits = phoneDigits(raw);
  if (digits.startsWith('+91')) digits = digits.slice(3);
  else if (/^91\d{10}$/.test(digits)) digits = digits.slice(2);
  else if (/^0\d{10}$/.test(digits)) digits = digits.slice(1);
  return /^\d{10}$/.test(digits) ? digits : null;
}

/**
 * The digits to look for in stored phones when a search box holds a phone as people type it
 * ("98100 00029", "+91 98100 00029"; issue 19), or null when the text is not a phone. Stored
 * phones are 10 digits, so a +91 or a leading 0 before ten digits is dropped as the import does.
 */
export function phoneSearchDigits(query: string): string | null {
  const full = normalisePhone(query);
  if (full) return full;
  let digits = phoneDigits(query);
  if (digits.startsWith('+91')) digits = digits.slice(3);
  return /^\d{3,}$/.test(digits) ? digits : null;
}
