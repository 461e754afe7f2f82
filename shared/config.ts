import type { StoreConfig } from './store';

/** Everything configurable, read from the environment once. Documented in README "Configuration". */
export interface Config {
  store: StoreConfig;
  /**
   * onStoreError: what a call does when the counter's store cannot be reached. 'open' (default, as
   * API gateways do): the call goes on, uncounted, and the failure is logged; 'closed': it fails.
   */
  rateLimit: { max: number; windowSeconds: number; onStoreError: 'open' | 'closed' };
  upstreamTimeoutMs: number;
  /**
   * Hosts for which plain http:// and loopback/private addresses are allowed where callers pass
   * URLs (webhook targets, attachment downloads). Empty in the cloud; the local server sets loopback.
   */
  allowHttpHosts: string[];
  /** Per platform: base URL of the vendor API, from `<PLATFORM>_BASE_URL` (absent: the real vendor). */
  baseUrls: Record<string, string | undefined>;
}

type Env = Record<string, string | undefined>;

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** `DBAPP_BASE_URL` → baseUrls.dbapp, `COLLAB_BASE_URL` → baseUrls.collab: any platform, no list to keep. */
function baseUrls(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const m = /^([A-Z][A-Z0-9]*)_BASE_URL$/.exec(name);
    if (m && value) out[m[1]!.toLowerCase()] = value;
  }
  return out;
}

function storePolicy(raw: string | undefined): 'open' | 'closed' {
  if (raw === undefined || raw === '' || raw === 'open') return 'open';
  if (raw === 'closed') return 'closed';
  throw new Error(`RATE_LIMIT_ON_STORE_ERROR must be "open" or "closed", got "${raw}"`);
}

export function loadConfig(env: Env = process.env): Config {
  const kind = env.STORE ?? (env.TABLE_NAME ? 'dynamodb' : 'memory');
  if (kind !== 'memory' && kind !== 'dynamodb') throw new Error(`STORE must be "memory" or "dynamodb", got "${kind}"`);
  return {
    store: { kind, table: env.TABLE_NAME, endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION },
    rateLimit: {
      max: positiveInt(env, 'RATE_LIMIT_MAX', 600),
      windowSeconds: positiveInt(env, 'RATE_LIMIT_WINDOW_SECONDS', 60),
      onStoreError: storePolicy(env.RATE_LIMIT_ON_STORE_ERROR),
    },
    upstreamTimeoutMs: positiveInt(env, 'UPSTREAM_TIMEOUT_MS', 10_000),
    allowHttpHosts: (env.ALLOW_HTTP_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    baseUrls: baseUrls(env),
  };
}
