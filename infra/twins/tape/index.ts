import { Hono } from 'hono';
import { authenticate, credits, errorResponse, TapeHttpError, type TwinEnv } from './http';
import { orgRoutes } from './routes/org';
import { workspaceRoutes } from './routes/workspace';
import { seedState, type TapeState } from './state';

export interface TapeTwinOptions {
  /** Credits per key per interval; Tape: 2,000 per minute. */
  credits?: number;
  intervalSeconds?: number;
  /** Milliseconds every answer waits: a stand-in for network and server time in benchmarks. */
  latencyMs?: number;
  now?: () => number;
}

export interface TapeTwin {
  app: Hono<TwinEnv>;
  state: TapeState;
  /** In-process fetch into the twin: what a client uses in place of the network. */
  fetch: typeof fetch;
}

/** Credits of the requests Tape documents as expensive; all others cost 10. */
function cost(method: string, path: string): number {
  if (method === 'DELETE' && /^\/v1\/workspace\/\d+$/.test(path)) return 100;
  return 10;
}

/** A stateful stand-in for Tape's API (https://api.tapeapp.com/v1), speaking its wire format. */
export function createTapeTwin(options: TapeTwinOptions = {}): TapeTwin {
  const state = seedState();
  const app = new Hono<TwinEnv>();
  const latency = options.latencyMs ?? 0;

  if (latency > 0) app.use('*', async (_c, next) => { await new Promise((r) => setTimeout(r, latency)); await next(); });
  app.use('/v1/*', credits({ credits: options.credits ?? 2000, intervalSeconds: options.intervalSeconds ?? 60, cost, now: options.now ?? Date.now }));
  app.use('/v1/*', authenticate(state));
  app.route('/v1', orgRoutes(state));
  app.route('/v1', workspaceRoutes(state));

  app.notFound((c) => errorResponse(c, new TapeHttpError(400, 'invalid_request_url', `The request URL is not valid: ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => {
    if (err instanceof TapeHttpError) return errorResponse(c, err);
    return errorResponse(c, new TapeHttpError(500, 'internal_server_error', 'An unexpected error occurred.'));
  });

  const fetchInto = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch;
  return { app, state, fetch: fetchInto };
}

export { SANDBOX_KEYS } from './state';
