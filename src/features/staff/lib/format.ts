const sameYear = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  hour: 'numeric',
  minute: '2-digit',
});
const otherYear = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

/** "25 Nov, 6:29 am" this year, "3 Mar 2025" before; "Never" for an account never signed in. */
export function formatSignIn(iso: string | null, now = new Date()): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  return (date.getFullYear() === now.getFullYear() ? sameYear : otherYear).format(date);
}
