import { api } from '../../../lib/api-client';

export type DuplicateField = 'email' | 'contact' | 'adharNo';

// Spec §7: each check is its own endpoint and query parameter.
const endpoints: Record<DuplicateField, { path: string; param: string }> = {
  email: { path: 'Registration/check-email', param: 'email' },
  contact: { path: 'Registration/check-contact', param: 'contact' },
  adharNo: { path: 'Registration/check-aadhar', param: 'aadharno' },
};

/** True when an account already uses `value`. */
export async function checkDuplicate(
  field: DuplicateField,
  value: string,
  signal: AbortSignal,
): Promise<boolean> {
  const { path, param } = endpoints[field];
  const exists = await api.get(path, { searchParams: { [param]: value }, signal }).json<unknown>();
  return exists === true;
}
