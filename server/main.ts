import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { seedFirstAdmin } from './services/bootstrap';

const DRAIN_TIMEOUT_MS = 30_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  if (config.seedAdmin) {
    const created = await seedFirstAdmin(app.deps.users, config.adminEmail, config.adminPassword);
    if (created?.generatedPassword) {
      // Printed once, on the first start only (DESIGN.md §3).
      console.log(
        `\n  First Admin created: ${created.email}\n  Password: ${created.generatedPassword}\n  (shown only this once; change it with "Forgot Password")\n`,
      );
    } else if (created) {
      app.log.info({ email: created.email }, 'first Admin created from ADMIN_EMAIL/ADMIN_PASSWORD');
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: new requests get 503 while the ones in flight finish');
    // Bounded: a request still running after 30 s is cut off (an import in it rolls back).
    const drained = await app.drain(DRAIN_TIMEOUT_MS);
    if (!drained) app.log.error('requests still in flight after 30 s: closing anyway');
    // Stops listening, ends the parse workers, closes the database (SQLite checkpoints its WAL).
    await app.close();
    app.log.info('shut down');
    process.exit(drained ? 0 : 1);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(`LeadNest is serving on ${address} (database: ${config.database.kind})`);
}

void main();
