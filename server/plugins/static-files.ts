import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { problem } from '../errors';
import { NO_STORE } from './etag';

/**
 * Serves the built PWA from one origin with the API. Hashed assets are cached for a year; the
 * shell and the service worker are revalidated on every load so a new version is noticed.
 * Unknown non-API paths get index.html (client-side routes such as /dashboard).
 */
export default fp(async (app: FastifyInstance, { root }: { root: string | null }) => {
  const hasBuild = root !== null && fs.existsSync(path.join(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      // The build writes .br and .gz beside each text file (scripts/precompress.mjs).
      preCompressed: true,
      // Otherwise @fastify/static overwrites the headers below with its own "max-age=0".
      cacheControl: false,
      setHeaders(res, filePath) {
        const rel = path.relative(root, filePath);
        if (rel.startsWith(`assets${path.sep}`))
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.toLowerCase().startsWith('/api');
    if (!isApi && hasBuild && request.method === 'GET') {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const message = isApi ? `No API call ${request.method} ${request.url.split('?')[0]}.` : 'Not found.';
    if (isApi) reply.header('cache-control', NO_STORE);
    return reply.status(404).type('application/problem+json').send(problem(404, message));
  });
});
