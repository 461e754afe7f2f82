import { Hono } from 'hono';
import { SANDBOX_KEYS, useKit, type Clock, type Twin } from '../kit';
import { dataset, type Dataset } from './dataset';
import { authenticate, batchDataErrors, batchDataRateLimit, type TwinEnv, type TwinUser } from './http';
import { propertyRoutes } from './routes';

export interface BatchDataTwinOptions {
  /** The twin's clock (rate-limit windows, `meta.performance` times); default: real time, movable. */
  clock?: Clock;
  /** Milliseconds after which every answer leaves (at the earliest): network and server time in benchmarks. */
  latencyMs?: number;
  /** Requests per token per window; BatchData: 3,000 a minute. */
  rateLimit?: { limit: number; windowMs: number };
  /** BatchData has no webhooks in the tools' endpoints; accepted for the platform list (CommonTwinOptions). */
  hookTargets?: 'public' | 'any';
}

/** The BatchData twin: the kit's parts, its tokens, and the shared read-only dataset. */
export interface BatchDataTwin extends Twin {
  app: Hono<TwinEnv>;
  users: ReadonlyMap<string, TwinUser>;
  /** The dataset (built on first access, then shared by every twin of the process). */
  readonly data: Dataset;
}

/**
 * A stand-in for BatchData's Property API v1 (https://api.batchdata.com/api/v1, docs/vendors/batchdata.md):
 * POST /property/search (filters, quick lists, counts, comparables) and POST
 * /property/lookup/all-attributes, in BatchData's status envelope, over 12,000 synthetic
 * properties in four counties. Building a twin is cheap: the dataset is made once per process,
 * on the first request that needs it.
 */
export function createBatchDataTwin(options: BatchDataTwinOptions = {}): BatchDataTwin {
  const app = new Hono<TwinEnv>();
  const kit = useKit(app, { clock: options.clock, latencyMs: options.latencyMs, errors: batchDataErrors });
  const users = new Map<string, TwinUser>([
    [SANDBOX_KEYS.owner, { name: 'Sandbox owner', permissions: new Set(['property-search', 'property-lookup'] as const) }],
    [SANDBOX_KEYS.member, { name: 'Sandbox member (search only)', permissions: new Set(['property-search'] as const) }],
  ]);
  const limit = options.rateLimit ?? { limit: 3000, windowMs: 60_000 };
  app.use('*', batchDataRateLimit({ clock: kit.clock, ...limit }));
  app.use('*', authenticate(users));
  app.route('/', propertyRoutes({ clock: kit.clock }));

  return {
    app,
    ...kit,
    users,
    get data() {
      return dataset();
    },
  };
}

export { AS_OF, dataset, type Core, type Dataset } from './dataset';
export { QUICK_LIST_NAMES } from './quicklists';
export { buildRecord } from './record';
export { SANDBOX_KEYS } from '../kit';
