import { HttpError } from '../errors';
import type { RateLimitsRepository } from '../repositories/rate-limits.repository';

export function createRateLimiter(repo: RateLimitsRepository, windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  const windowOf = (now: number) => Math.floor(now / windowMs) * windowMs;
  const tooMany = (message: string, windowStart: number, now: number) =>
    new HttpError(429, message, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))) },
    });
  return {
    /** Throws 429 with Retry-After when `key` already reached `max` in this window. */
    async ensureBelow(key: string, max: number, message: string): Promise<void> {
      const now = Date.now();
      const start = windowOf(now);
      if ((await repo.peek(key, start)) >= max) throw tooMany(message, start, now);
    },
    /** Counts a hit and throws 429 once it goes past `max`. */
    async consume(key: string, max: number, message: string): Promise<void> {
      const now = Date.now();
      const start = windowOf(now);
      if ((await repo.hit(key, start)) > max) throw tooMany(message, start, now);
    },
    record(key: string): Promise<number> {
      return repo.hit(key, windowOf(Date.now()));
    },
    reset(key: string): Promise<void> {
      return repo.clear(key);
    },
    /** Clears every key that starts with `prefix`. */
    resetAll(prefix: string, trx?: Parameters<RateLimitsRepository['clearPrefix']>[1]): Promise<void> {
      return repo.clearPrefix(prefix, trx);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
