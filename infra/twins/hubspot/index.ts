import { Hono } from 'hono';
import { SANDBOX_KEYS, seedShift, twinRateLimit, useKit, type OAuthServer, type Twin, type TwinOptions } from '../kit';
import { hubspotOAuth } from './oauth';
import { authenticate, hubspotErrors, hubspotRateLimit, HUBSPOT_WINDOW, usersByKey, type TwinEnv } from './http';
import { associationRoutes } from './routes/associations';
import { objectRoutes } from './routes/objects';
import { schemaRoutes } from './routes/schema';
import { HUBSPOT_DEMO, seedDemoState } from './seed';
import { OWNERS } from './model';
import type { HubSpotState } from './state';
import { PORTAL_ID } from './routes/objects';
import { HubSpotWebhooks } from './webhooks';

/** The kit's options (infra/twins/kit/options.ts); the CRM twin hands out no links. */
export type HubSpotTwinOptions = TwinOptions;

/** The HubSpot twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface HubSpotTwin extends Twin {
  app: Hono<TwinEnv>;
  state: HubSpotState;
  /** The app's webhook settings, subscriptions and signed deliveries (webhooks.ts). */
  webhooks: HubSpotWebhooks;
  /** The OAuth authorization server: /oauth/authorize, /oauth/v1/token, refresh-token revocation. */
  oauth: OAuthServer;
}

/** A stateful stand-in for HubSpot's CRM v3/v4 API (https://api.hubapi.com), speaking its wire format (docs/vendors/hubspot.md). */
export function createHubSpotTwin(options: HubSpotTwinOptions = {}): HubSpotTwin {
  const app = new Hono<TwinEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: hubspotErrors });
  const state = seedDemoState(seedShift(kit.clock, HUBSPOT_DEMO.today));
  const oauth = hubspotOAuth(kit.clock, options.oauthAccessSeconds);
  oauth.authorizePage(app, '/oauth/authorize');
  oauth.tokenRoute(app, '/oauth/v1/token');
  // Access token metadata (the account an app was installed by): https://developers.hubspot.com/docs/api/oauth/tokens
  app.get('/oauth/v1/access-tokens/:token', (c) => {
    const grant = oauth.resolve(c.req.param('token'));
    if (typeof grant !== 'object') return c.json({ status: 'error', message: 'The OAuth token used to make this call expired or is unknown.', category: 'EXPIRED_AUTHENTICATION' }, 401);
    const owner = OWNERS.find((o) => o.id === usersByKey(SANDBOX_KEYS).get(SANDBOX_KEYS[grant.account as 'owner' | 'member'])?.ownerId)!;
    return c.json({
      token: c.req.param('token'), user: owner.email, hub_domain: 'sandbox-crm.test', scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.deals.read'], hub_id: PORTAL_ID,
      app_id: 1, expires_in: grant.expiresAt === null ? 0 : Math.max(0, Math.round((grant.expiresAt - kit.clock.now()) / 1000)), user_id: Number(owner.id), token_type: 'access',
    });
  });
  app.delete('/oauth/v1/refresh-tokens/:token', (c) => (oauth.revokeRefresh(c.req.param('token')) ? c.body(null, 204) : c.json({ status: 'error', message: 'refresh token not found', category: 'OBJECT_NOT_FOUND' }, 404)));
  app.use('*', twinRateLimit(kit.clock, options.rateLimit, HUBSPOT_WINDOW, hubspotRateLimit()));
  const webhooks = new HubSpotWebhooks(state, {
    portalId: PORTAL_ID,
    clock: kit.clock,
    targets: options.hookTargets ?? 'public',
    fetch: options.hookFetch ?? ((input, init) => fetch(input, init)),
    ...(options.hookRedeliver ? { redeliver: options.hookRedeliver } : {}),
  });
  // The Webhooks API takes the app's developer key, not a portal's token: before the token check.
  app.route('/', webhooks.routes());
  app.use('*', authenticate(usersByKey(SANDBOX_KEYS), oauth));
  app.use('*', webhooks.watch());
  app.route('/', webhooks.accountRoutes());
  app.route('/', objectRoutes(state, kit.clock));
  app.route('/', schemaRoutes(state, kit.clock));
  app.route('/', associationRoutes(state));
  return { app, ...kit, state, webhooks, oauth };
}

export { HUBSPOT_DEMO } from './seed';
export { PORTAL_ID } from './routes/objects';
export { HUBSPOT_APP, signV3 } from './webhooks';
export { SANDBOX_KEYS } from '../kit';
