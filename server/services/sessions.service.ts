import type { UsersRepository } from '../repositories/users.repository';
import type { TokenClaims, TokenService } from './tokens';

interface Deps {
  tokens: TokenService;
  /** Reads the users table; on SQLite through the read-only connection an import does not hold. */
  users: UsersRepository;
  /** The database's change mark (server/db/reader.ts). */
  version: () => Promise<string>;
  /** The mark without waiting, where the database allows (SQLite). */
  versionNow?: () => string;
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
export function createSessionService({ tokens, users, version, versionNow }: Deps) {
  const states = new Map<number, { version: string; state: AuthState }>();

  async function authState(userId: number, mark: string): Promise<AuthState> {
    const known = states.get(userId);
    if (known?.version === mark) return known.state;
    const state = await users.findAuthState(userId);
    states.set(userId, { version: mark, state });
    return state;
  }

  function session(claims: TokenClaims, state: AuthState, mark: string): Session | null {
    if (
      state?.is_active !== 1 ||
      state.token_version !== claims.tokenVersion ||
      state.role_id !== claims.roleId
    ) {
      return null;
    }
    return { claims, version: mark };
  }

  return {
    /** The session of a valid token of an active user, or null (the caller answers 401). */
    async authenticate(token: string): Promise<Session | null> {
      const [claims, mark] = await Promise.all([tokens.verify(token), version()]);
      if (!claims) return null;
      return session(claims, await authState(claims.userId, mark), mark);
    },
    /**
     * The same answer from what is already known, without waiting (a token seen before, a user
     * row read under the current mark); undefined when that is not enough: call authenticate.
     * Most calls of a signed-in user end here, so they pay no promise for their session.
     */
    authenticateNow(token: string): Session | null | undefined {
      const mark = versionNow?.();
      if (mark === undefined) return undefined;
      const claims = tokens.verifiedBefore(token);
      if (!claims) return claims;
      const known = states.get(claims.userId);
      return known?.version === mark ? session(claims, known.state, mark) : undefined;
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
