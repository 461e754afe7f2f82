import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { loadConfig } from '../../shared/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/runtime';
import { createTapeTwin, SANDBOX_KEYS } from '../twins/tape';
import { platforms } from './platforms';

/**
 * The embedded default: every platform on one port, the memory store, and the sandbox twins in
 * the same process (mounted under /twins/<vendor> for a look, and called in-process by the tools).
 * A platform whose *_BASE_URL is set talks to that URL instead.
 */
export async function startLocal(env: Record<string, string | undefined> = process.env) {
  // Locally, webhook receivers and attachment sources on this machine are fair game.
  const config = loadConfig({ ALLOW_HTTP_HOSTS: '127.0.0.1,localhost', ...env });
  // Receivers on this machine may be webhook targets locally (real Tape: public hosts only).
  const tape = createTapeTwin({ hookTargets: config.allowHttpHosts.length ? 'any' : 'public' });
  const rt = await createRuntime({
    platforms,
    config,
    fetchFor: { dbapp: config.baseUrls.dbapp ? undefined : tape.fetch },
  });
  const app = new Hono();
  app.route('/twins/tape', tape.app);
  app.route('/', createApp(rt));

  const port = Number(env.PORT ?? 8787);
  const hostname = env.HOST ?? '127.0.0.1';
  const server = serve({ fetch: app.fetch, port, hostname });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${actualPort}`;
  return { server, base, key: SANDBOX_KEYS.owner, tape };
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const { base, key } = await startLocal();
  const lines = [
    `Tool Execution Service listening on ${base}`,
    `platforms: ${platforms.map((p) => p.name).join(', ')} (store: ${loadConfig().store.kind}; Tape: ${process.env.DBAPP_BASE_URL ?? 'sandbox twin'})`,
    `sandbox key: ${key}`,
    `try: curl -s -X POST ${base}/v1/tools/dbapp/listWorkspaces -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{}'`,
  ];
  console.log(lines.join('\n'));
}
