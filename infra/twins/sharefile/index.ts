import { Hono } from 'hono';
import { publicBaseOf, publicLinkFetch, seedShift, twinRateLimit, useKit, type OAuthServer, type Twin, type TwinOptions } from '../kit';
import { sharefileOAuth } from './oauth';
import { SHAREFILE_DEMO, seedDemoState } from './demo';
import { authenticate, baseOf, odataRoutes, SF_HOST, SF_WINDOW, sfErrors, sfRateLimit, type SfEnv } from './http';
import { accessRoutes } from './routes/access';
import { itemRoutes } from './routes/items';
import { peopleRoutes } from './routes/people';
import { publicRoutes } from './routes/public';
import { shareRoutes } from './routes/shares';
import type { SfState } from './state';
import { SfWebhooks } from './webhooks';

/** The kit's options (infra/twins/kit/options.ts); `publicBase` defaults to the origin the request came through. */
export type ShareFileTwinOptions = TwinOptions;

/** The ShareFile twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface ShareFileTwin extends Twin {
  app: Hono<SfEnv>;
  state: SfState;
  /** Webhook subscriptions and their POSTs (webhooks.ts). */
  webhooks: SfWebhooks;
  /** The OAuth authorization server: /oauth/authorize and /oauth/token. */
  oauth: OAuthServer;
}

/** A stateful stand-in for ShareFile's OData v3 API (https://{subdomain}.sf-api.com/sf/v3), speaking its wire format (docs/vendors/sharefile.md). */
export function createShareFileTwin(options: ShareFileTwinOptions = {}): ShareFileTwin {
  const app = new Hono<SfEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: sfErrors });
  const clock = kit.clock;
  const state = seedDemoState(seedShift(clock, SHAREFILE_DEMO.today));
  const publicBase = publicBaseOf(options.publicBase);
  app.use('*', async (c, next) => {
    c.set('base', baseOf(c));
    c.set('links', publicBase() ?? baseOf(c));
    await next();
  });
  const webhooks = new SfWebhooks(state, {
    clock,
    targets: options.hookTargets ?? 'public',
    fetch: options.hookFetch ?? ((input, init) => fetch(input, init)),
    ...(options.hookRedeliver ? { redeliver: options.hookRedeliver } : {}),
  });
  // Every write (the API and the upload URLs) is compared for webhook events once it is done.
  app.use('*', webhooks.watch());
  // Download links, upload ChunkUris and share pages work without the API key.
  publicRoutes(app, state, clock);
  const oauth = sharefileOAuth(state, clock, options.oauthAccessSeconds);
  oauth.authorizePage(app, '/oauth/authorize');
  oauth.tokenRoute(app, '/oauth/token');
  app.use('/sf/v3/*', twinRateLimit(clock, options.rateLimit, SF_WINDOW, sfRateLimit), authenticate(state, oauth));
  odataRoutes(app, [...itemRoutes(state, clock), ...accessRoutes(state, clock), ...peopleRoutes(state, clock), ...shareRoutes(state, clock), ...webhooks.routes()]);
  // A tool reading a file behind one of those links reaches the twin in-process too.
  return { app, ...kit, fetch: publicLinkFetch(kit.fetch, publicBase, SF_HOST), state, webhooks, oauth };
}

export { SHAREFILE_DEMO } from './demo';
export { SHAREFILE_WEBHOOK_KEYS, sfWebhookSignature } from './webhooks';
export { ASYNC_COPY_THRESHOLD, DOWNLOAD_TOKEN_TTL_MS } from './routes/items';
export { SANDBOX_KEYS } from '../kit';
