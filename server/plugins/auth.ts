import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../contract/messages';
import type { RoleId } from '../../contract/roles';
import { forbidden, unauthorized } from '../errors';
import type { TokenClaims } from '../services/tokens';

/**
 * Who may call a route, declared once in its `config.access` (DESIGN.md §3):
 * 'public' needs nothing, 'optional' reads a token when one is sent, 'signed-in' needs any
 * valid token, and a list of roles needs one of them. An /api route without it is refused,
 * so a new route cannot ship open by accident.
 */
export type Access = 'public' | 'optional' | 'signed-in' | readonly RoleId[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: TokenClaims | null;
    /** The database's change mark taken while authenticating (server/db/reader.ts), or null. */
    dataVersion: string | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : '';
}

export default fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
  app.decorateRequest('dataVersion', null);

  async function authenticate(request: FastifyRequest, token: string): Promise<TokenClaims> {
    const session = await app.deps.sessions.authenticate(token);
    if (!session) throw unauthorized(messages.session.expired);
    request.dataVersion = session.version;
    return session.claims;
  }

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api') && !request.url.toLowerCase().startsWith('/api')) return;
    if (!request.routeOptions.url) return; // unknown route: the 404 handler answers
    const access = request.routeOptions.config.access;
    if (access === undefined) throw forbidden('This call has no access rule.');
    if (access === 'public') return;
    const token = bearer(request);
    if (token === null) {
      if (access === 'optional') return;
      throw unauthorized(messages.session.expired);
    }
    request.user = await authenticate(request, token);
    if (Array.isArray(access) && !access.includes(request.user.roleId)) throw forbidden();
  });
});
