import { Hono } from 'hono';
import { createClock, downloadRoutes, seedShift, publicBaseOf, publicLinkFetch, useKit, type Twin, type TwinOptions } from '../kit';
import { authenticate, credits, tapeErrors, type TwinEnv } from './http';
import { TapeHookDeliveries } from './delivery';
import { DEMO_TODAY, seedDemo } from './demo';
import { appRoutes } from './routes/app';
import { fileRoutes } from './routes/file';
import { hookRoutes } from './routes/hook';
import { orgRoutes } from './routes/org';
import { emailRoutes } from './routes/email';
import { linkPreviewRoutes } from './routes/link-preview';
import { recordAccessRoutes } from './routes/record-access';
import { recordRoutes } from './routes/record';
import { viewRoutes } from './routes/view';
import { workspaceRoutes } from './routes/workspace';
import { automationRoutes, automationWebhookRoutes } from './automation/routes';
import { tapeCost } from './credits';
import { TapeAutomations, type TapeAutomationOptions } from './automation/outbox';
import { twinControls } from './automation/controls';
import { observedClock } from './automation/scheduler';
import { seedState, TAPE_HOST, type TapeState } from './state';

/**
 * The kit's options (infra/twins/kit/options.ts) but `rateLimit`: Tape counts credits, a request's
 * cost read from it (credits.ts). `publicBase` is where attachments' `download_url` point; default:
 * Tape's API host.
 */
export interface TapeTwinOptions extends Omit<TwinOptions, 'rateLimit'> {
  /** Credits per key per interval; Tape: 2,000 per minute. */
  credits?: number;
  intervalSeconds?: number;
  /** Seed the demo apps "Leads" and "Deals" with their records in workspace 2 (default true). */
  demo?: boolean;
  /** How long a webhook receiver may take to answer; Tape: 5 s. */
  hookTimeoutMs?: number;
  /** How webhook POSTs leave the twin (default: the global fetch); tests may capture them. */
  hookFetch?: typeof fetch;
  /** Extra copies of every webhook POST: at-least-once delivery, as after a lost answer (kit/webhooks.ts). */
  hookRedeliver?: number;
  /** Automations: hosts http_call may reach, its fetch, custom code limits (automation/outbox.ts). */
  automations?: Omit<TapeAutomationOptions, 'now'>;
}

/** The Tape twin: the kit's parts (app, fetch, clock, requests, faults) and Tape's own. */
export interface TapeTwin extends Twin {
  app: Hono<TwinEnv>;
  state: TapeState;
  /** Webhooks and their POSTs; `await twin.deliveries.idle()` waits for the pending ones. */
  deliveries: TapeHookDeliveries;
  /** Automation runs, outbox and HTTP calls; `await twin.automations.idle()` waits for the runs in flight. */
  automations: TapeAutomations;
  /** Stops the automation scheduler's timer: call it when done with a twin whose clock is real time. */
  close(): void;
}

/** A stateful stand-in for Tape's API (https://api.tapeapp.com/v1), speaking its wire format. */
export function createTapeTwin(options: TapeTwinOptions = {}): TapeTwin {
  const state = seedState();
  const publicBase = publicBaseOf(options.publicBase);
  state.linkBase = () => publicBase() ?? TAPE_HOST;
  const app = new Hono<TwinEnv>();
  // Moving the twin's clock fires the scheduled automations that became due (automation/scheduler.ts).
  const clock = observedClock(options.clock ?? createClock());
  if (options.demo !== false) seedDemo(state, seedShift(clock, DEMO_TODAY));
  const kit = useKit(app, { clock, latencyMs: options.latencyMs, errors: tapeErrors });
  const now = kit.clock.now;
  const automations = new TapeAutomations(state, { ...options.automations, now });
  const deliveries = new TapeHookDeliveries(state, {
    targets: options.hookTargets ?? 'public',
    timeoutMs: options.hookTimeoutMs ?? 5000,
    perAppPerMinute: 100,
    clock: kit.clock,
    fetch: options.hookFetch ?? ((input, init) => fetch(input, init)),
    ...(options.hookRedeliver ? { redeliver: options.hookRedeliver } : {}),
  });

  app.use('/v1/*', async (_c, next) => {
    // Scheduled automations fire by the clock; around each request, so a read sees what fell due and an activation starts its schedule.
    automations.tick();
    await next();
    automations.tick();
  });
  app.use('/v1/*', credits({ credits: options.credits ?? 2000, intervalSeconds: options.intervalSeconds ?? 60, cost: tapeCost, clock: kit.clock }));
  app.use('/v1/*', authenticate(state));
  app.route('/v1', orgRoutes(state, now));
  app.route('/v1', emailRoutes(state, now));
  app.route('/v1', linkPreviewRoutes(automations.engine));
  app.route('/v1', recordAccessRoutes(state, now));
  app.route('/v1', workspaceRoutes(state));
  app.route('/v1', appRoutes(state));
  app.route('/v1', recordRoutes(state, now));
  app.route('/v1', viewRoutes(state));
  app.route('/v1', hookRoutes(state, deliveries));
  app.route('/v1', fileRoutes(state, now));
  app.route('/v1', automationRoutes(state, automations.store, automations.engine, now));
  app.route('/', automationWebhookRoutes(automations.store, automations.engine, now));
  // An attachment's download_url (docs/vendors/tape.md#fields-and-values): the bytes without the key, as a signed storage link serves them.
  app.route('/', downloadRoutes((id) => state.attachments.get(id)));
  app.use('/_twin/*', authenticate(state));
  app.route('/_twin', twinControls(kit.clock, automations));
  clock.onMove(() => automations.tick());
  // Any other URL answers Tape's JSON error, also where the local server mounts the twin (app.route does not carry notFound over).
  app.all('*', (c) => {
    throw tapeErrors.notFound(c);
  });

  // A tool reading an attachment behind its download_url reaches the twin in-process too.
  return { app, ...kit, fetch: publicLinkFetch(kit.fetch, publicBase, TAPE_HOST), state, deliveries, automations, close: () => automations.close() };
}

export { SANDBOX_KEYS } from '../kit';
