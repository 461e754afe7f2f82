import { Hono } from 'hono';
import { publicBaseOf, publicLinkFetch, useKit, type Clock, type Twin } from '../kit';
import { seedDemoState } from './demo';
import { authenticate, baseOf, odataRoutes, SF_HOST, sfErrors, sfRateLimit, type SfEnv } from './http';
import { accessRoutes } from './routes/access';
import { itemRoutes } from './routes/items';
import { peopleRoutes } from './routes/people';
import { publicRoutes } from './routes/public';
import { shareRoutes } from './routes/shares';
import type { SfState } from './state';

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
  /** Webhook targets (ShareFile webhooks are not part of the filebox tools); kept for the platform list. */
  hookTargets?: 'public' | 'any';
}

/** The ShareFile twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface ShareFileTwin extends Twin {
  app: Hono<SfEnv>;
  state: SfState;
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
  // Download links, upload ChunkUris and share pages work without the API key.
  publicRoutes(app, state, clock);
  const limit = options.rateLimit ?? { limit: 6000, windowMs: 60_000 };
  app.use('/sf/v3/*', sfRateLimit({ clock, ...limit }), authenticate(state));
  odataRoutes(app, [...itemRoutes(state, clock), ...accessRoutes(state, clock), ...peopleRoutes(state, clock), ...shareRoutes(state, clock)]);
  // A tool reading a file behind one of those links reaches the twin in-process too.
  return { app, ...kit, fetch: publicLinkFetch(kit.fetch, publicBase, SF_HOST), state };
}

export { SHAREFILE_DEMO } from './demo';
export { ASYNC_COPY_THRESHOLD, DOWNLOAD_TOKEN_TTL_MS } from './routes/items';
export { SANDBOX_KEYS } from '../kit';
