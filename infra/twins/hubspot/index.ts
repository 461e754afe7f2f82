import { Hono } from 'hono';
import { SANDBOX_KEYS, useKit, type Clock, type Twin } from '../kit';
import { authenticate, hubspotErrors, hubspotRateLimit, usersByKey, type TwinEnv } from './http';
import { associationRoutes } from './routes/associations';
import { objectRoutes } from './routes/objects';
import { schemaRoutes } from './routes/schema';
import { seedDemoState } from './seed';
import type { HubSpotState } from './state';

export interface HubSpotTwinOptions {
  /** The twin's clock (record timestamps, rate-limit windows); default: real time, movable. */
  clock?: Clock;
  /** Milliseconds after which every answer leaves (at the earliest): network and server time in benchmarks. */
  latencyMs?: number;
  /** Requests per token per window; HubSpot (Professional/Enterprise private apps): 190 per 10 seconds. */
  rateLimit?: { limit: number; windowMs: number };
  /** Webhook targets (the platform list's common option); the CRM twin sends no webhooks. */
  hookTargets?: 'public' | 'any';
}

/** The HubSpot twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface HubSpotTwin extends Twin {
  app: Hono<TwinEnv>;
  state: HubSpotState;
}

/** A stateful stand-in for HubSpot's CRM v3/v4 API (https://api.hubapi.com), speaking its wire format (docs/vendors/hubspot.md). */
export function createHubSpotTwin(options: HubSpotTwinOptions = {}): HubSpotTwin {
  const state = seedDemoState();
  const app = new Hono<TwinEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: hubspotErrors });
  const limit = options.rateLimit ?? { limit: 190, windowMs: 10_000 };
  app.use('*', hubspotRateLimit({ clock: kit.clock, ...limit }));
  app.use('*', authenticate(usersByKey(SANDBOX_KEYS)));
  app.route('/', objectRoutes(state, kit.clock));
  app.route('/', schemaRoutes(state, kit.clock));
  app.route('/', associationRoutes(state));
  return { app, ...kit, state };
}

export { HUBSPOT_DEMO } from './seed';
export { PORTAL_ID } from './routes/objects';
export { SANDBOX_KEYS } from '../kit';
