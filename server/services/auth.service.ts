import type { LoginRequest, LoginResponse } from '../../contract/auth';
import { messages } from '../../contract/messages';
import { isRoleId } from '../../contract/roles';
import { HttpError } from '../errors';
import type { UsersRepository } from '../repositories/users.repository';
import { dummyPasswordHash, verifyPassword } from './passwords';
import type { RateLimiter } from './rate-limiter';
import type { TokenService } from './tokens';

interface Deps {
  users: UsersRepository;
  tokens: TokenService;
  limiter: RateLimiter;
  limits: { maxPerEmail: number; maxPerIp: number };
  /** Records a successful sign-in (the Employees screen's "last sign-in"). */
  onSignIn?: (userId: number, at: Date) => Promise<void>;
}

/** The rate-limit key of one email's sign-in attempts from one address. */
export const loginFailureKey = (email: string, ip: string) => `${loginFailurePrefix(email)}${ip}`;
/** What every address's key of that email starts with (a reset clears them all). */
export const loginFailurePrefix = (email: string) => `login-email-ip:${email} `;

export function createAuthService({ users, tokens, limiter, limits, onSignIn }: Deps) {
  return {
    async login({ email, password }: LoginRequest, ip: string): Promise<LoginResponse> {
      const normalised = email.trim().toLowerCase();
      // Failures count per email *and* address (issue 16): counted per email alone, anyone could
      // keep the Admin out by guessing wrong; now only the guesser's own address is refused.
      const emailKey = loginFailureKey(normalised, ip);
      await limiter.consume(`login-ip:${ip}`, limits.maxPerIp, messages.login.tooManyAttempts);
      // The attempt is counted before the (slow) password check, so attempts arriving together
      // cannot all pass a check that none has counted yet; a right password clears the count.
      await limiter.consume(emailKey, limits.maxPerEmail, messages.login.tooManyAttempts);

      const user = await users.findByEmail(normalised);
      // Unknown emails cost one hash verification too, so timing does not tell which emails exist.
      const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
      if (!user || !ok || !isRoleId(user.role_id)) {
        throw new HttpError(401, messages.login.invalidCredentials);
      }
      // Told only to someone who knows the password, so it reveals nothing to a guesser.
      if (user.is_active !== 1) throw new HttpError(403, messages.login.deactivated);
      await limiter.reset(emailKey);
      await onSignIn?.(user.id, new Date());
      const token = await tokens.sign({
        userId: user.id,
        email: user.email,
        roleId: user.role_id,
        tokenVersion: user.token_version,
      });
      return { token, email: user.email, roleId: user.role_id, message: messages.login.success };
    },

    /**
     * Sign-out ends the token on the server too (issue 16), not only on the device: a copy taken
     * from the phone stops working. The token version is bumped, so the user's tokens on other
     * devices end with it.
     */
    logout(userId: number): Promise<void> {
      return users.endTokens(userId);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
