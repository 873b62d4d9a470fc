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

export function createTokenService(secret: Uint8Array, ttlSeconds: number) {
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
    /** Null for anything forged, expired or malformed; the caller answers 401. */
    async verify(token: string): Promise<TokenClaims | null> {
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
        return { userId, email: String(payload.email), roleId: payload.roleId, tokenVersion: payload.tv };
      } catch {
        return null;
      }
    },
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
