import type { Kysely } from 'kysely';
import type { RegistrationRequest, RegistrationResponse } from '../../contract/auth';
import { messages } from '../../contract/messages';
import { Role } from '../../contract/roles';
import { isUniqueViolation, uniqueViolationTarget } from '../db/database';
import type { Database } from '../db/schema';
import { conflict, forbidden, HttpError, unauthorized } from '../errors';
import type { UsersRepository } from '../repositories/users.repository';
import type { AadhaarVault } from './aadhaar-vault';
import { hashPassword } from './passwords';
import type { TokenClaims } from './tokens';

const m = messages.registration;

interface Deps {
  db: Kysely<Database>;
  users: UsersRepository;
  vault: AadhaarVault;
}

export function createRegistrationService({ db, users, vault }: Deps) {
  async function ensureNoDuplicate(input: RegistrationRequest): Promise<void> {
    if (await users.exists('email', input.email.toLowerCase())) throw conflict(m.emailExists);
    if (await users.exists('contact', input.contact)) throw conflict(m.contactExists);
    if (await users.exists('aadhaar_hash', vault.hash(input.adharNo))) throw conflict(m.aadhaarExists);
  }

  return {
    /**
     * DESIGN.md §3: only an Admin registers accounts, except the very first account, which needs
     * no token and must itself be an Admin.
     */
    async register(input: RegistrationRequest, actor: TokenClaims | null): Promise<RegistrationResponse> {
      const firstAccount = (await users.count()) === 0;
      if (firstAccount) {
        if (input.roleId !== Role.Admin)
          throw new HttpError(400, m.firstAccountMustBeAdmin, {
            errors: { roleId: [m.firstAccountMustBeAdmin] },
          });
      } else if (!actor) {
        throw unauthorized(m.adminOnly);
      } else if (actor.roleId !== Role.Admin) {
        throw forbidden(m.adminOnly);
      }
      await ensureNoDuplicate(input);
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await db.transaction().execute(async (trx) => {
          if (firstAccount) {
            // Two first registrations racing: the settings key is unique, so only one wins.
            await trx
              .insertInto('settings')
              .values({ key: 'first-admin-registered', value: new Date().toISOString() })
              .execute();
          }
          return users.insert(
            {
              email: input.email.trim().toLowerCase(),
              password_hash: passwordHash,
              contact: input.contact,
              aadhaar_enc: vault.encrypt(input.adharNo),
              aadhaar_hash: vault.hash(input.adharNo),
              aadhaar_last4: input.adharNo.slice(-4),
              role_id: input.roleId,
              created_at: new Date().toISOString(),
            },
            trx,
          );
        });
        return { registrationId: user.id, email: user.email, roleId: input.roleId, message: m.success };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const target = uniqueViolationTarget(error);
        if (/first-admin|settings/.test(target)) throw unauthorized(m.adminOnly);
        if (/contact/.test(target)) throw conflict(m.contactExists);
        if (/aadhaar/.test(target)) throw conflict(m.aadhaarExists);
        throw conflict(m.emailExists);
      }
    },

    emailExists: (email: string) => users.exists('email', email.trim().toLowerCase()),
    contactExists: (contact: string) => users.exists('contact', contact.trim()),
    aadhaarExists: (aadhaar: string) => users.exists('aadhaar_hash', vault.hash(aadhaar.trim())),
  };
}
export type RegistrationService = ReturnType<typeof createRegistrationService>;
