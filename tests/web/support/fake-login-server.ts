import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP server whose login answers `answer`: the real server cannot sign in a role it does
 * not know, so the "unknown role" branch of the login screen is exercised over a real HTTP hop.
 */
export async function startFakeLoginServer(answer: Record<string, unknown>) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const isLogin = request.method === 'POST' && request.url?.toLowerCase() === '/api/registration/login';
      response.writeHead(isLogin ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(isLogin ? answer : { status: 404, title: 'Not Found', message: 'Not Found' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
