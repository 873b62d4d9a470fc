import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// lead_changes gains rows on every change of a lead (issue 18's delta refresh); only the newest
// row of each (employee, lead) pair is ever needed. Every process trims the rest a few minutes
// after it starts and then every six hours; two nodes doing it at once only delete the same rows.
const FIRST_RUN_MS = 5 * 60_000;
const EVERY_MS = 6 * 60 * 60_000;

export default fp(async (app: FastifyInstance) => {
  const { syncChanges } = app.deps;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  let running: Promise<void> | undefined;

  // Between windows: let requests in, and stop early when the app is closing.
  const pause = () =>
    new Promise<void>((resolve, reject) =>
      setImmediate(() => (stopping ? reject(new Error('closing')) : resolve())),
    );

  const run = () => {
    running = syncChanges
      .prune(pause)
      .then((deleted) => {
        if (deleted > 0) app.log.info({ deleted }, 'trimmed lead_changes');
      })
      .catch((error: unknown) => {
        if (!stopping) app.log.warn({ err: error }, 'trimming lead_changes failed; trying again later');
      })
      .finally(() => {
        running = undefined;
        if (!stopping) timer = setTimeout(run, EVERY_MS).unref();
      });
  };

  app.addHook('onReady', async () => {
    timer = setTimeout(run, FIRST_RUN_MS).unref();
  });
  app.addHook('preClose', async () => {
    stopping = true;
    clearTimeout(timer);
    await running;
  });
});
