import crypto from 'node:crypto';
import { passwordPattern } from '../../contract/auth';
import { defaultClientStatuses } from '../../contract/options';
import { Role } from '../../contract/roles';
import type { OptionsRepository } from '../repositories/options.repository';
import type { UsersRepository } from '../repositories/users.repository';
import { hashPassword } from './passwords';

export const seedOptions = {
  call_statuses: ['Connected', 'Not Reachable', 'Busy', 'Switched Off', 'Call Back Later', 'Wrong Number'],
  client_statuses: defaultClientStatuses,
  locations: ['Andheri', 'Bandra', 'Powai', 'Thane', 'Navi Mumbai', 'Borivali', 'Pune', 'Other'],
  configurations: ['1 RK', '1 BHK', '2 BHK', '3 BHK', '4 BHK', 'Villa', 'Plot', 'Commercial'],
} as const;

export async function seedOptionLists(options: OptionsRepository): Promise<void> {
  for (const [table, names] of Object.entries(seedOptions)) {
    await options.seedIfEmpty(table as keyof typeof seedOptions, names);
  }
}

/** A password that meets the registration rule of spec §5. */
export function generatePassword(): string {
  for (;;) {
    const candidate = `${crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}aA1@`;
    if (passwordPattern.test(candidate)) return candidate;
  }
}

/**
 * First start on an empty database: an Admin from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated
 * password that is printed once (DESIGN.md §3). Answers the printed password, if any.
 */
export async function seedFirstAdmin(
  users: UsersRepository,
  email: string,
  password: string | undefined,
): Promise<{ email: string; generatedPassword?: string } | null> {
  if ((await users.count()) > 0) return null;
  const chosen = password ?? generatePassword();
  await users.insert({
    email,
    password_hash: await hashPassword(chosen),
    contact: null,
    aadhaar_enc: null,
    aadhaar_hash: null,
    aadhaar_last4: null,
    role_id: Role.Admin,
    created_at: new Date().toISOString(),
  });
  return password ? { email } : { email, generatedPassword: chosen };
}
