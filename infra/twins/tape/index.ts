import { Hono } from 'hono';
import { authenticate, credits, errorResponse, TapeHttpError, type TwinEnv } from './http';
import { TapeHookDeliveries, type HookTargets } from './delivery';
import { seedDemo } from './demo';
import { appRoutes } from './routes/app';
import { fileRoutes } from './routes/file';
import { hookRoutes } from './routes/hook';
import { orgRoutes } from './routes/org';
import { recordRoutes } from './routes/record';
import { viewCost, viewRoutes } from './routes/view';
import { workspaceRoutes } from './routes/workspace';
import { automationCost, automationRoutes, automationWebhookRoutes } from './automation/routes';
import { TapeAutomations, type TapeAutomationOptions } from './automation/outbox';
import { seedState, type TapeState } from './state';

export interface TapeTwinOptions {
  /** Credits per key per interval; Tape: 2,000 per minute. */
  credits?: number;
  intervalSeconds?: number;
  /** Milliseconds after which every answer leaves (at the earliest): a stand-in for network and server time in benchmarks. */
  latencyMs?: number;
  now?: () => number;
  /** Seed the demo apps "Leads" and "Deals" with their records in workspace 2 (default true). */
  demo?: boolean;
  /** Webhook targets: 'public' (Tape: ports 80/443, public hosts; default) or 'any' (e.g. a receiver on 127.0.0.1:<port>). */
  hookTargets?: HookTargets;
  /** How long a webhook receiver may take to answer; Tape: 5 s. */
  hookTimeoutMs?: number;
  /** How webhook POSTs leave the twin (default: the global fetch); tests may capture them. */
  hookFetch?: typeof fetch;
  /** Automations: hosts http_call may reach, its fetch, custom code limits (automation/outbox.ts). */
  automations?: Omit<TapeAutomationOptions, 'now'>;
}

export interface TapeTwin {
  app: Hono<TwinEnv>;
  state: TapeState;
  /** In-process fetch into the twin: what a client uses in place of the network. */
  fetch: typeof fetch;
  /** Webhooks and their POSTs; `await twin.deliveries.idle()` waits for the pending ones. */
  deliveries: TapeHookDeliveries;
  /** Automation runs, outbox and HTTP calls; `await twin.automations.idle()` waits for the runs in flight. */
  automations: TapeAutomations;
}

/** Credits of the requests Tape documents as expensive; all others cost 10. */
function cost(method: string, path: string): number {
  if (method === 'DELETE' && /^\/v1\/workspace\/\d+$/.test(path)) return 100;
  const automation = automationCost(method, path);
  if (automation !== undefined) return automation;
  const view = viewCost(method, path);
  if (view !== undefined) return view;
  // file.md: an upload costs at least 2x a normal request (more with size; the size is not known here).
  if (method === 'POST' && path === '/v1/file/upload') return 20;
  return 10;
}

/** A stateful stand-in for Tape's API (https://api.tapeapp.com/v1), speaking its wire format. */
export function createTapeTwin(options: TapeTwinOptions = {}): TapeTwin {
  const state = seedState();
  if (options.demo !== false) seedDemo(state);
  const app = new Hono<TwinEnv>();
  const latency = options.latencyMs ?? 0;
  const deliveries = new TapeHookDeliveries(state, {
    targets: options.hookTargets ?? 'public',
    timeoutMs: options.hookTimeoutMs ?? 5000,
    perAppPerMinute: 100,
    now: options.now ?? Date.now,
    fetch: options.hookFetch ?? ((input, init) => fetch(input, init)),
  });

  // Every answer leaves `latency` ms after the request came in, the twin's own work included:
  // the time a real vendor takes to answer, whatever part of it is network or server.
  if (latency > 0) {
    app.use('*', async (_c, next) => {
      const started = performance.now();
      await next();
      const left = latency - (performance.now() - started);
      if (left > 0) await new Promise((r) => setTimeout(r, left));
    });
  }
  app.use('/v1/*', credits({ credits: options.credits ?? 2000, intervalSeconds: options.intervalSeconds ?? 60, cost, now: options.now ?? Date.now }));
  app.use('/v1/*', authenticate(state));
  app.route('/v1', orgRoutes(state));
  app.route('/v1', workspaceRoutes(state));
  app.route('/v1', appRoutes(state));
  app.route('/v1', recordRoutes(state, options.now ?? Date.now));
  app.route('/v1', viewRoutes(state));
  app.route('/v1', hookRoutes(state, deliveries));
  app.route('/v1', fileRoutes(state, options.now ?? Date.now));
  const automations = new TapeAutomations(state, { ...options.automations, now: options.now ?? Date.now });
  app.route('/v1', automationRoutes(state, automations.store, automations.engine, options.now ?? Date.now));
  app.route('/', automationWebhookRoutes(automations.store, automations.engine));

  app.notFound((c) => errorResponse(c, new TapeHttpError(400, 'invalid_request_url', `The request URL is not valid: ${c.req.method} ${c.req.path}`)));
  app.onError((err, c) => {
    if (err instanceof TapeHttpError) return errorResponse(c, err);
    return errorResponse(c, new TapeHttpError(500, 'internal_server_error', 'An unexpected error occurred.'));
  });

  const fetchInto = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch;
  return { app, state, fetch: fetchInto, deliveries, automations };
}

export { SANDBOX_KEYS } from './state';
