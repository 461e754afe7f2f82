import { Hono } from 'hono';
import { SANDBOX_KEYS, twinRateLimit, useKit, type Twin, type TwinOptions } from '../kit';
import { authenticate, hubspotErrors, hubspotRateLimit, HUBSPOT_WINDOW, usersByKey, type TwinEnv } from './http';
import { associationRoutes } from './routes/associations';
import { objectRoutes } from './routes/objects';
import { schemaRoutes } from './routes/schema';
import { seedDemoState } from './seed';
import type { HubSpotState } from './state';

/** The kit's options (infra/twins/kit/options.ts); the CRM twin sends no webhooks and hands out no links. */
export type HubSpotTwinOptions = TwinOptions;

/** The HubSpot twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface HubSpotTwin extends Twin {
  app: Hono<TwinEnv>;
  state: HubSpotState;
}

/** A stateful stand-in for HubSpot's CRM v3/v4 API (https://api.hubapi.com), speaking its wire format (vendor-docs/hubspot). */
export function createHubSpotTwin(options: HubSpotTwinOptions = {}): HubSpotTwin {
  const state = seedDemoState();
  const app = new Hono<TwinEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: hubspotErrors });
  app.use('*', twinRateLimit(kit.clock, options.rateLimit, HUBSPOT_WINDOW, hubspotRateLimit()));
  app.use('*', authenticate(usersByKey(SANDBOX_KEYS)));
  app.route('/', objectRoutes(state, kit.clock));
  app.route('/', schemaRoutes(state, kit.clock));
  app.route('/', associationRoutes(state));
  return { app, ...kit, state };
}

export { HUBSPOT_DEMO } from './seed';
export { PORTAL_ID } from './routes/objects';
export { SANDBOX_KEYS } from '../kit';
