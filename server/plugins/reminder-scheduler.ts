import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Runs the reminder scheduler (issue 15) while the app runs: it starts once the app is ready and
 * stops before the app closes, after the sends in progress, so shutdown and tests never hang on
 * it and the database is still open for its last writes.
 */
export default fp(async (app: FastifyInstance) => {
  const { followUps } = app.deps;
  followUps.useLogger(app.log);
  app.addHook('onReady', async () => followUps.reminderScheduler.start());
  app.addHook('preClose', async () => followUps.reminderScheduler.stop());
});
