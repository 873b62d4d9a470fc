import type { Kysely } from 'kysely';
import type { Database, NewUser, UserRow } from '../db/schema';

export function createUsersRepository(db: Kysely<Database>) {
  return {
    findByEmail(email: string, trx: Kysely<Database> = db): Promise<UserRow | undefined> {
      return trx.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },
    findById(id: number, trx: Kysely<Database> = db): Promise<UserRow | undefined> {
      return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The two columns every authenticated request checks; kept narrow so the lookup stays cheap. */
    findAuthState(id: number) {
      return db
        .selectFrom('users')
        .select(['token_version', 'is_active', 'role_id', 'email'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async count(trx: Kysely<Database> = db): Promise<number> {
      const row = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async exists(column: 'email' | 'contact' | 'aadhaar_hash', value: string): Promise<boolean> {
      const row = await db.selectFrom('users').select('id').where(column, '=', value).executeTakeFirst();
      return row !== undefined;
    },
    async insert(user: NewUser, trx: Kysely<Database> = db): Promise<UserRow> {
      return trx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },
    listByRole(roleId: number) {
      return db
        .selectFrom('users')
        .select(['id', 'email'])
        .where('role_id', '=', roleId)
        .where('is_active', '=', 1)
        .orderBy('id')
        .execute();
    },
    /** Every token issued to the user so far stops working (sign-out, issue 16). */
    async endTokens(id: number): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    async setPassword(id: number, passwordHash: string, trx: Kysely<Database> = db): Promise<void> {
      // Bumping the token version is what signs out every token issued before (DESIGN.md §3).
      await trx
        .updateTable('users')
        .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
