import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../contract/messages';
import type { RoleId } from '../../contract/roles';
import { forbidden, unauthorized } from '../errors';
import type { Session } from '../services/sessions.service';
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

  // A callback hook: a public call pays no promise, a signed-in one only the session's.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api') && !request.url.toLowerCase().startsWith('/api')) return done();
    if (!request.routeOptions.url) return done(); // unknown route: the 404 handler answers
    const access = request.routeOptions.config.access;
    if (access === undefined) return done(forbidden('This call has no access rule.'));
    if (access === 'public') return done();
    const token = bearer(request);
    if (token === null)
      return done(access === 'optional' ? undefined : unauthorized(messages.session.expired));
    const signIn = (session: Session | null) => {
      if (!session) return done(unauthorized(messages.session.expired));
      request.user = session.claims;
      request.dataVersion = session.version;
      if (Array.isArray(access) && !access.includes(session.claims.roleId)) return done(forbidden());
      done();
    };
    const known = app.deps.sessions.authenticateNow(token);
    if (known !== undefined) return signIn(known);
    app.deps.sessions.authenticate(token).then(signIn, done);
  });
});
