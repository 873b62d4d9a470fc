import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import { type Db, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createDeps } from './deps';
import authPlugin from './plugins/auth';
import drain from './plugins/drain';
import etag from './plugins/etag';
import idempotency from './plugins/idempotency';
import problemJson, { frameworkError } from './plugins/problem-json';
import reminderScheduler from './plugins/reminder-scheduler';
import securityHeaders from './plugins/security-headers';
import staticFiles from './plugins/static-files';
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
  /** An already-open database (tests reuse one per file). */
  database?: Db;
}

export type App = FastifyInstance;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const database = options.database ?? openDatabase(config.database);
  await migrateToLatest(database.db as never, database.dialect);
  const deps = createDeps(config, database);
  await seedOptionLists(deps.options);

  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
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

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  if (!options.database) app.addHook('onClose', () => database.close());

  await app.register(problemJson);
  await app.register(drain);
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
  await app.register(staticFiles, { root: config.staticDir });

  await app.ready();
  return app;
}
