import { Hono } from 'hono';
import { publicBaseOf, publicLinkFetch, useKit, type Clock, type OAuthServer, type Twin } from '../kit';
import { sharefileOAuth } from './oauth';
import { seedDemoState } from './demo';
import { authenticate, baseOf, odataRoutes, SF_HOST, sfErrors, sfRateLimit, type SfEnv } from './http';
import { accessRoutes } from './routes/access';
import { itemRoutes } from './routes/items';
import { peopleRoutes } from './routes/people';
import { publicRoutes } from './routes/public';
import { shareRoutes } from './routes/shares';
import type { SfState } from './state';
import { SfWebhooks } from './webhooks';

export interface ShareFileTwinOptions {
  /** The twin's clock (timestamps, share expiry, download-token expiry, rate-limit windows); default: real time, movable. */
  clock?: Clock;
  /** Milliseconds after which every answer leaves (at the earliest): network and server time in benchmarks. */
  latencyMs?: number;
  /** Calls per token per window. ShareFile publishes no limit ("excessive usage will be curtailed"); default 6,000 per minute. */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Where links meant for people (share Uris, download links) point, e.g. `http://127.0.0.1:8787/twins/sharefile`
   * when the twin is mounted by the local server (a function: the server knows its port once it
   * listens); default: the origin the request came through.
   */
  publicBase?: string | (() => string | undefined);
  /** Webhook targets: 'public' (default) or 'any' (a receiver on this machine). */
  hookTargets?: 'public' | 'any';
  /** How webhook POSTs leave the twin (default: the global fetch). */
  hookFetch?: typeof fetch;
  /** Extra copies of every webhook POST: at-least-once delivery (kit/webhooks.ts). */
  hookRedeliver?: number;
  /** Access-token lifetime of the OAuth flow in seconds (ShareFile: 28,800). */
  oauthAccessSeconds?: number;
}

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
  const state = seedDemoState();
  const app = new Hono<SfEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: sfErrors });
  const clock = kit.clock;
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
  const limit = options.rateLimit ?? { limit: 6000, windowMs: 60_000 };
  app.use('/sf/v3/*', sfRateLimit({ clock, ...limit }), authenticate(state, oauth));
  odataRoutes(app, [...itemRoutes(state, clock), ...accessRoutes(state, clock), ...peopleRoutes(state, clock), ...shareRoutes(state, clock), ...webhooks.routes()]);
  // A tool reading a file behind one of those links reaches the twin in-process too.
  return { app, ...kit, fetch: publicLinkFetch(kit.fetch, publicBase, SF_HOST), state, webhooks, oauth };
}

export { SHAREFILE_DEMO } from './demo';
export { ASYNC_COPY_THRESHOLD, DOWNLOAD_TOKEN_TTL_MS } from './routes/items';
export { SANDBOX_KEYS } from '../kit';
