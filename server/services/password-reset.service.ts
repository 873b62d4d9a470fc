import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { messages } from '../../contract/messages';
import {
  type PasswordMessageResponse,
  passwordMessages,
  RESET_TOKEN_TTL_MINUTES,
  type ResetPasswordRequest,
} from '../../contract/password';
import type { Database } from '../db/schema';
import { badRequest } from '../errors';
import type { PasswordResetsRepository } from '../repositories/password-resets.repository';
import type { UsersRepository } from '../repositories/users.repository';
import { loginFailurePrefix } from './auth.service';
import type { Mailer } from './mailer';
import { hashPassword } from './passwords';
import type { RateLimiter } from './rate-limiter';

interface Deps {
  db: Kysely<Database>;
  users: UsersRepository;
  resets: PasswordResetsRepository;
  mailer: Mailer;
  limiter: RateLimiter;
  publicUrl: string;
  /** Forgot-password requests per rate-limiter window (15 minutes by default). */
  limits?: { perEmail: number; perIp: number };
}

const ttlMs = RESET_TOKEN_TTL_MINUTES * 60_000;
const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function createPasswordResetService({ db, users, resets, mailer, limiter, publicUrl, limits }: Deps) {
  const { perEmail, perIp } = limits ?? { perEmail: 5, perIp: 20 };
  // Mail goes out after the answer (see requestReset); these let shutdown and tests wait for it.
  const inFlight = new Set<Promise<void>>();

  function sendInBackground(to: string, link: string, log: FastifyBaseLogger): void {
    const job = mailer
      .send({
        to,
        subject: passwordMessages.mailSubject,
        text: `Someone asked to reset the password of your LeadNest account.\n\nOpen this link within ${RESET_TOKEN_TTL_MINUTES} minutes to choose a new password:\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.\n`,
        html: `<p>Someone asked to reset the password of your LeadNest account.</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, within ${RESET_TOKEN_TTL_MINUTES} minutes).</p><p>If it was not you, ignore this message; your password stays as it is.</p>`,
      })
      .then((result) => {
        if (result.via === 'file')
          log.info({ to, file: result.file }, 'SMTP_URL is not set: reset mail written to a file');
        else log.info({ to, messageId: result.messageId }, 'reset mail sent');
      })
      .catch((error: unknown) => log.error({ err: error, to }, 'reset mail could not be sent'))
      .then(() => resets.deleteExpiredBefore(new Date(Date.now() - 24 * 3600_000)))
      .catch((error: unknown) => log.warn({ err: error }, 'old reset links could not be cleaned up'))
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  }

  async function refusal(tokenHash: string, now: Date) {
    const row = await resets.find(tokenHash);
    const message = !row
      ? passwordMessages.tokenUnknown
      : row.used_at
        ? passwordMessages.tokenUsed
        : row.expires_at <= now.toISOString()
          ? passwordMessages.tokenExpired
          : null;
    return message ? badRequest(message, { token: [message] }) : null;
  }

  return {
    /**
     * Answers the same sentence for known and unknown emails (DESIGN.md §6), and does not wait
     * for the mail server, so neither the answer nor its timing tells whether an account exists.
     */
    async requestReset(email: string, ip: string, log: FastifyBaseLogger): Promise<PasswordMessageResponse> {
      const normalised = email.trim().toLowerCase();
      await limiter.consume(`forgot-ip:${ip}`, perIp, passwordMessages.tooManyRequests);
      await limiter.consume(`forgot-email:${normalised}`, perEmail, passwordMessages.tooManyRequests);
      const user = await users.findByEmail(normalised);
      if (user && user.is_active === 1) {
        const token = crypto.randomBytes(32).toString('base64url');
        const now = new Date();
        await resets.insert(user.id, sha256(token), new Date(now.getTime() + ttlMs), now);
        // PUBLIC_URL, never the request's Host header: a forged Host must not redirect the link.
        // The token goes after '#': a browser never sends the fragment, so no server or proxy log
        // along the way holds it (issue 16).
        sendInBackground(user.email, `${publicUrl}/reset-password#token=${token}`, log);
      }
      return { message: messages.password.forgotAnswer };
    },

    async resetPassword({ token, password }: ResetPasswordRequest): Promise<PasswordMessageResponse> {
      const tokenHash = sha256(token);
      // Checked before hashing, so a stream of bad tokens costs no Argon2 work.
      const early = await refusal(tokenHash, new Date());
      if (early) throw early;
      const passwordHash = await hashPassword(password);
      const now = new Date();
      const email = await db.transaction().execute(async (trx) => {
        const userId = await resets.consume(tokenHash, now, trx);
        if (userId === undefined) return null;
        // setPassword bumps the token version: every token issued before the reset stops working.
        await users.setPassword(userId, passwordHash, trx);
        await resets.retireOthers(userId, now, trx);
        return (await users.findById(userId, trx))?.email ?? null;
      });
      if (email === null) throw (await refusal(tokenHash, now)) ?? badRequest(passwordMessages.tokenUsed);
      // The owner proved who they are: failed sign-ins counted against them, from any address, go.
      await limiter.resetAll(loginFailurePrefix(email));
      return { message: passwordMessages.resetDone };
    },

    /** Resolves once every mail already handed to the background has been sent or has failed. */
    async idle(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
