import { configureApi } from '../../../src/lib/api-client';
import { startTestServer, type TestServer } from '../../helpers/test-server';

/** Starts the real API on a random port and points the app's client at it. */
export async function startApi(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer(env);
  pointApiAt(server.url);
  return server;
}

export function pointApiAt(origin: string): void {
  configureApi({ baseUrl: `${origin}/api`, onUnauthorized: () => {} });
}
