import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '../../contract/messages';
import type { RoleId } from '../../contract/roles';
import { forbidden, type HttpError, unauthorized } from '../errors';
import type { Session, SessionService } from '../services/sessions.service';
import type { TokenClaims } from '../services/tokens';
import { addRouteHook } from './route-hooks';

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

type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : '';
}

/** Signs the request in with its session; the refusal to answer instead, if any. */
function admit(request: FastifyRequest, access: Access, session: Session | null): HttpError | undefined {
  if (!session) return unauthorized(messages.session.expired);
  request.user = session.claims;
  request.dataVersion = session.version;
  if (Array.isArray(access) && !access.includes(session.claims.roleId)) return forbidden();
  return undefined;
}

/** The onRequest check of one route, made when the route is registered. */
function guard(access: Access | undefined, sessions: SessionService): OnRequest | undefined {
  if (access === 'public') return undefined;
  if (access === undefined) {
    return (_request, _reply, done) => done(forbidden('This call has no access rule.'));
  }
  // A callback hook: a public call pays no promise, a signed-in one only the session's, and a
  // token seen before under an unchanged database none at all.
  return (request, _reply, done) => {
    const token = bearer(request);
    if (token === null)
      return done(access === 'optional' ? undefined : unauthorized(messages.session.expired));
    const known = sessions.authenticateNow(token);
    if (known !== undefined) return done(admit(request, access, known));
    sessions.authenticate(token).then((session) => done(admit(request, access, session)), done);
  };
}

export default fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
  app.decorateRequest('dataVersion', null);

  // Each /api route gets its own check with its access rule bound here, once: reading
  // request.routeOptions on every call built a fresh options object each time (issue 7).
  // Routes match paths case-insensitively, so /API/admin/leads meets the same check.
  // Wider than isApiRoute on purpose ('/api' itself, '/api-…'): a route that looks like the API
  // is guarded. The app's dependencies are decorated before any route is registered.
  app.addHook('onRoute', (route) => {
    if (!route.url.toLowerCase().startsWith('/api')) return;
    const check = guard(route.config?.access, app.deps.sessions);
    if (check) addRouteHook(route, 'onRequest', check);
  });
});
