import { Hono } from 'hono';
import { SANDBOX_KEYS, twinRateLimit, useKit, type Twin, type TwinOptions } from '../kit';
import { dataset, type Dataset } from './dataset';
import { authenticate, BATCHDATA_WINDOW, batchDataErrors, batchDataRateLimit, type TwinEnv, type TwinUser } from './http';
import { propertyRoutes } from './routes';

/** The kit's options (infra/twins/kit/options.ts); BatchData sends no webhooks and hands out no links. */
export type BatchDataTwinOptions = TwinOptions;

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
  app.use('*', twinRateLimit(kit.clock, options.rateLimit, BATCHDATA_WINDOW, batchDataRateLimit));
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
