import { jwtVerify, SignJWT } from 'jose';
import { isRoleId, type RoleId } from '../../contract/roles';

const ISSUER = 'leadnest';
const AUDIENCE = 'leadnest-web';

export interface TokenClaims {
  userId: number;
  email: string;
  roleId: RoleId;
  tokenVersion: number;
}

// Tokens already verified, with their expiry: jose's HS256 check goes through WebCrypto and costs
// about as much as a whole bare-Fastify request, and a phone sends the same token for days. The
// key is the whole token, so only a byte-identical copy of a verified token hits.
const MAX_VERIFIED = 10_000;

export function createTokenService(secret: Uint8Array, ttlSeconds: number) {
  const verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();

  return {
    sign(claims: TokenClaims): Promise<string> {
      return new SignJWT({ email: claims.email, roleId: claims.roleId, tv: claims.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(secret);
    },
    /**
     * The claims of a token verified before, without waiting: null once it has expired,
     * undefined when it was not seen yet (verify it).
     */
    verifiedBefore(token: string): TokenClaims | null | undefined {
      const known = verified.get(token);
      if (!known) return undefined;
      if (known.expiresAt > Date.now()) return known.claims;
      verified.delete(token);
      return null;
    },
    /** Null for anything forged, expired or malformed; the caller answers 401. */
    async verify(token: string): Promise<TokenClaims | null> {
      const known = this.verifiedBefore(token);
      if (known !== undefined) return known;
      try {
        // HS256 only: alg "none" and asymmetric-algorithm confusion are refused here.
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || !isRoleId(payload.roleId) || typeof payload.tv !== 'number')
          return null;
        const claims = {
          userId,
          email: String(payload.email),
          roleId: payload.roleId,
          tokenVersion: payload.tv,
        };
        // Oldest first: a full map drops the entry verified longest ago.
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        if (payload.exp !== undefined) verified.set(token, { claims, expiresAt: payload.exp * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
