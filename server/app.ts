import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import { dataDirExposure } from './db/data-dir';
import { type Db, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createDeps } from './deps';
import authPlugin from './plugins/auth';
import drain from './plugins/drain';
import etag from './plugins/etag';
import idempotency from './plugins/idempotency';
import jsonBody from './plugins/json-body';
import problemJson, { frameworkError } from './plugins/problem-json';
import reminderScheduler from './plugins/reminder-scheduler';
import requestTimeouts, { serverTimeouts } from './plugins/request-timeouts';
import securityHeaders from './plugins/security-headers';
import staticFiles from './plugins/static-files';
import syncChangesPruner from './plugins/sync-changes-pruner';
import adminRoutes from './routes/admin.routes';
import healthRoutes from './routes/health.routes';
import importsRoutes from './routes/imports.routes';
import leadExportRoutes from './routes/lead-export.routes';
import leadStatusRoutes from './routes/lead-status.routes';
import leadStatusOptionRoutes from './routes/lead-status-options.routes';
import leadsRoutes from './routes/leads.routes';
import managerRoutes from './routes/manager.routes';
import passwordRoutes from './routes/password.routes';
import pushRoutes from './routes/push.routes';
import registrationRoutes from './routes/registration.routes';
import searchRoutes from './routes/search.routes';
import staffRoutes from './routes/staff.routes';
import syncRoutes from './routes/sync.routes';
import { seedOptionLists } from './services/bootstrap';

export interface BuildOptions {
  logger?: boolean;
  /** Where the log goes (standard output when absent). */
  logStream?: NodeJS.WritableStream;
  /** An already-open database (tests reuse one per file). */
  database?: Db;
}

export type App = FastifyInstance;

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes "the nearest n addresses are proxies" (this
 * Fastify trusts nothing for a bare number); the client is then the n-th X-Forwarded-For entry
 * from the right, and entries a client wrote further left are ignored.
 */
function trustedProxies(trust: Config['trustProxy']) {
  if (typeof trust !== 'number') return trust;
  return trust === 0 ? false : (_address: string, hop: number) => hop < trust;
}

/**
 * A request as the log shows it: the path without its query string, which can carry secrets
 * (a reset link's token, issue 16) that anyone reading the log must not get.
 */
function loggedRequest(request: FastifyRequest) {
  const q = request.url.indexOf('?');
  return {
    method: request.method,
    url: q === -1 ? request.url : `${request.url.slice(0, q)}?…`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const database = options.database ?? openDatabase(config.database);
  await migrateToLatest(database.db as never, database.dialect);
  const deps = createDeps(config, database);
  await seedOptionLists(deps.options);

  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, serializers: { req: loggedRequest }, stream: options.logStream },
    trustProxy: trustedProxies(config.trustProxy),
    ...serverTimeouts(config),
    bodyLimit: 1024 * 1024,
    // Paths are case-insensitive (DESIGN.md §2): /api/leadstatus/... = /api/LeadStatus/...
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    // JSON bodies with __proto__ or constructor.prototype keys are refused, not merged.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // The drain plugin answers 503 as problem JSON while shutting down (Fastify's own is not).
    return503OnClosing: false,
    // close() comes after the drain (server/main.ts), when nothing is in flight: it ends every
    // connection at once instead of waiting on keep-alive sockets a client may hold open for
    // minutes (seen as a test server's close() hanging past 60 s).
    forceCloseConnections: true,
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  const dataDir = dataDirExposure(config.dataDir);
  if (dataDir?.exposed) {
    app.log.warn(
      { dataDir: config.dataDir, mode: dataDir.mode },
      `DATA_DIR is readable by other accounts on this machine (mode ${dataDir.mode}); it holds password hashes and every lead: run chmod 700 on it`,
    );
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  if (!options.database) app.addHook('onClose', () => database.close());

  await app.register(problemJson);
  await app.register(requestTimeouts);
  await app.register(drain);
  await app.register(jsonBody);
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(etag);
  await app.register(fastifyCompress, { threshold: 2048 });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'LeadNest API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(authPlugin);
  await app.register(idempotency);

  await app.register(healthRoutes, { prefix: '/api' });
  await app.register(registrationRoutes, { prefix: '/api/Registration' });
  await app.register(passwordRoutes, { prefix: '/api/Registration' });
  await app.register(searchRoutes, { prefix: '/api/Search' });
  await app.register(leadStatusOptionRoutes, { prefix: '/api/LeadStatus' });
  await app.register(leadStatusRoutes, { prefix: '/api/LeadStatus' });
  await app.register(adminRoutes, { prefix: '/api/Admin' });
  await app.register(staffRoutes, { prefix: '/api/Admin' });
  await app.register(leadExportRoutes, { prefix: '/api/Admin' });
  await app.register(managerRoutes, { prefix: '/api/Manager' });
  await app.register(importsRoutes, { prefix: '/api/Admin' });
  await app.register(leadsRoutes, { prefix: '/api/Leads' });
  await app.register(syncRoutes, { prefix: '/api/sync' });
  await app.register(pushRoutes, { prefix: '/api/push' });
  await app.register(reminderScheduler);
  await app.register(syncChangesPruner);
  await app.register(staticFiles, { root: config.staticDir });

  await app.ready();
  return app;
}
