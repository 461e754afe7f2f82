import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A plain http server on 127.0.0.1 for the current test file, started before its tests and closed
 * after them: reachable by the service only where a test lists 127.0.0.1 in allowHttpHosts.
 * Returns a getter of its base URL (known once the server listens).
 */
export function loopbackServer(handler: http.RequestListener): () => string {
  const server = http.createServer(handler);
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return () => base;
}
