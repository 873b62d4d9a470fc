import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forgotPasswordSchema, resetPasswordSchema } from '../../contract/auth';

const messageAnswer = z.object({ message: z.string() });

// /api/Registration/forgotpassword and /reset-password (spec §7, DESIGN.md §2 and §6); anyone may call them.
const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passwordReset, mailer } = app.deps;
  app.addHook('onClose', async () => {
    await passwordReset.idle();
    mailer.close();
  });

  app.post(
    '/forgotpassword',
    {
      config: { access: 'public' },
      schema: { body: forgotPasswordSchema, response: { 200: messageAnswer } },
    },
    (request) => passwordReset.requestReset(request.body.email, request.ip, request.log),
  );

  app.post(
    '/reset-password',
    { config: { access: 'public' }, schema: { body: resetPasswordSchema, response: { 200: messageAnswer } } },
    (request) => passwordReset.resetPassword(request.body),
  );
};
export default passwordRoutes;
