import { Hono } from 'hono';
import { downloadRoutes, publicBaseOf, publicLinkFetch, seedShift, twinRateLimit, useKit, type OAuthServer, type Twin, type TwinOptions } from '../kit';
import { podioOAuth } from './oauth';
import { PODIO_DEMO, seedDemoState } from './demo';
import { collectGarbage } from './files';
import { authenticate, baseOf, podioErrors, podioRateLimit, PODIO_WINDOW, type TwinEnv } from './http';
import { appRoutes } from './routes/app';
import { oauthRoutes } from './routes/auth';
import { commentRoutes } from './routes/comment';
import { grantRoutes } from './routes/grant';
import { fileRoutes } from './routes/file';
import { hookRoutes } from './routes/hook';
import { searchRoutes } from './routes/search';
import { PodioHooks } from './hooks';
import { itemRoutes } from './routes/item';
import { itemExtraRoutes } from './routes/item-extra';
import { orgRoutes } from './routes/org';
import { viewRoutes } from './routes/view';
import { conversationRoutes } from './routes/conversation';
import { taskRoutes } from './routes/task';
import type { PodioState } from './state';

/** The kit's options (infra/twins/kit/options.ts): Podio uses all of them. */
export type PodioTwinOptions = TwinOptions;

/** The Podio twin: the kit's parts (app, fetch, clock, requests, faults) and its state. */
export interface PodioTwin extends Twin {
  app: Hono<TwinEnv>;
  state: PodioState;
  /** Hook deliveries: `log` of every POST, `idle()` waits for the queued ones. */
  hooks: PodioHooks;
  /** The OAuth authorization server: /oauth/authorize, and the authorization-code grant of /oauth/token. */
  oauth: OAuthServer;
}

/** Where the twin stands in for Podio's API. */
const PODIO_HOST = 'https://api.podio.com';

/** A stateful stand-in for Podio's API (https://api.podio.com), speaking its wire format (docs/vendors/podio.md). */
export function createPodioTwin(options: PodioTwinOptions = {}): PodioTwin {
  const app = new Hono<TwinEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: podioErrors });
  const clock = kit.clock;
  const state = seedDemoState(seedShift(clock, PODIO_DEMO.today));
  const publicBase = publicBaseOf(options.publicBase);
  state.linkBase = publicBase;

  app.use('*', async (c, next) => {
    c.set('base', baseOf(c));
    collectGarbage(state, clock.now());
    await next();
  });
  // A file's `link` (values.ts fileOut): the bytes without the token, before authentication.
  app.route('/', downloadRoutes((id) => {
    const f = state.files.get(id);
    return f?.token ? { content: f.content, mimetype: f.mimetype, token: f.token } : undefined;
  }));
  const oauth = podioOAuth(state, clock, options.oauthAccessSeconds);
  oauth.authorizePage(app, '/oauth/authorize');
  app.route('/', oauthRoutes(state, clock, oauth));
  app.use('*', twinRateLimit(clock, options.rateLimit, PODIO_WINDOW, podioRateLimit));
  app.use('*', authenticate(state, clock, oauth));
  const hooks = new PodioHooks(state, { targets: options.hookTargets ?? 'public', fetch: options.hookFetch ?? ((input, init) => fetch(input, init)), ...(options.hookRedeliver ? { redeliver: options.hookRedeliver } : {}) });
  app.use('*', hooks.events());
  app.route('/', orgRoutes(state));
  app.route('/', appRoutes(state));
  app.route('/', itemRoutes(state, clock));
  app.route('/', itemExtraRoutes(state));
  app.route('/', fileRoutes(state, clock));
  app.route('/', commentRoutes(state, clock));
  app.route('/', hookRoutes(state, clock, hooks));
  app.route('/', searchRoutes(state));
  app.route('/', viewRoutes(state, clock));
  app.route('/', grantRoutes(state, clock));
  app.route('/', conversationRoutes(state, clock));
  app.route('/', taskRoutes(state, clock));

  // A tool reading a file behind its link reaches the twin in-process too.
  return { app, ...kit, fetch: publicLinkFetch(kit.fetch, publicBase, PODIO_HOST), state, hooks, oauth };
}

export { PODIO_DEMO } from './demo';
export { UNATTACHED_FILE_TTL_MS } from './files';
export { SANDBOX_KEYS } from '../kit';
