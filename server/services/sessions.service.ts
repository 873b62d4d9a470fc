import type { UsersRepository } from '../repositories/users.repository';
import type { TokenClaims, TokenService } from './tokens';

interface Deps {
  tokens: TokenService;
  /** Reads the users table; on SQLite through the read-only connection an import does not hold. */
  users: UsersRepository;
  /** The database's change mark (server/db/reader.ts). */
  version: () => Promise<string>;
}

export interface Session {
  claims: TokenClaims;
  /** The change mark taken before this request read anything, for answers cached under it. */
  version: string;
}

type AuthState = Awaited<ReturnType<UsersRepository['findAuthState']>>;

/**
 * Who a bearer token belongs to. The token version, role and active flag are checked on every
 * call, so a password reset or a deactivation signs the user out at once rather than when the
 * token expires (DESIGN.md §3); the row read for it is reused while the database has not changed,
 * so a steady stream of reads costs no users-table query.
 */
export function createSessionService({ tokens, users, version }: Deps) {
  const states = new Map<number, { version: string; state: AuthState }>();

  async function authState(userId: number, mark: string): Promise<AuthState> {
    const known = states.get(userId);
    if (known?.version === mark) return known.state;
    const state = await users.findAuthState(userId);
    states.set(userId, { version: mark, state });
    return state;
  }

  return {
    /** The session of a valid token of an active user, or null (the caller answers 401). */
    async authenticate(token: string): Promise<Session | null> {
      const [claims, mark] = await Promise.all([tokens.verify(token), version()]);
      if (!claims) return null;
      const state = await authState(claims.userId, mark);
      if (
        state?.is_active !== 1 ||
        state.token_version !== claims.tokenVersion ||
        state.role_id !== claims.roleId
      ) {
        return null;
      }
      return { claims, version: mark };
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
