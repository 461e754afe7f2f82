import type { StoreConfig } from './store';
import { loadEventsConfig, type EventsConfig } from './events-config';

/** Everything configurable, read from the environment once. Documented in README "Configuration". */
export interface Config {
  store: StoreConfig;
  rateLimit: {
    /** RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_SECONDS: override every platform's default (rateLimitFor). */
    global: Partial<RateLimit>;
    /** <PLATFORM>_RATE_LIMIT_MAX / _WINDOW_SECONDS (e.g. DBAPP_…): override the global and the default. */
    platforms: Record<string, Partial<RateLimit>>;
    /**
     * What a call does when the counter's store cannot be reached. 'open' (default, as API
     * gateways do): the call goes on, uncounted, and the failure is logged; 'closed': it fails.
     */
    onStoreError: 'open' | 'closed';
  };
  upstreamTimeoutMs: number;
  /**
   * Hosts for which plain http:// and loopback/private addresses are allowed where callers pass
   * URLs (webhook targets, attachment downloads). Empty in the cloud; the local server sets loopback.
   */
  allowHttpHosts: string[];
  /** Per platform: base URL of the vendor API, from `<PLATFORM>_BASE_URL` (absent: the real vendor). */
  baseUrls: Record<string, string | undefined>;
  /** The event inbox (shared/core/events-config.ts); absent in hand-built configs: the defaults. */
  events?: EventsConfig;
  /** Approvals of held calls (shared/identity/approvals.ts); absent in hand-built configs: the defaults. */
  approvals?: ApprovalConfig;
  /** The audit trail (shared/core/audit.ts); absent in hand-built configs: the defaults. */
  audit?: AuditConfig;
}

export interface ApprovalConfig {
  /** APPROVAL_TTL_SECONDS: how long an approval request may be decided and used (default 15 min). */
  ttlSeconds: number;
  /** APPROVAL_WEBHOOK_URL / APPROVAL_WEBHOOK_SECRET: a signed notice of each pending approval (off when unset). */
  webhookUrl?: string;
  webhookSecret?: string;
  /** APPROVAL_SIGN_IN=required: the approval page asks for an approver's service key (policy `approver`). */
  signIn: boolean;
}

export interface AuditConfig {
  /** AUDIT_RETENTION_DAYS: how long records are kept in the Store (default 90; DynamoDB TTL). */
  retentionDays: number;
  /** AUDIT_EXPORT_BUCKET / AUDIT_EXPORT_BUS: each record also written as a JSON line to S3, or put on an EventBridge bus (off when unset). */
  exportBucket?: string;
  exportBus?: string;
}

export const DEFAULT_APPROVAL_TTL_SECONDS = 15 * 60;
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

export function loadApprovalConfig(env: Env): ApprovalConfig {
  const signIn = env.APPROVAL_SIGN_IN || 'off';
  if (signIn !== 'off' && signIn !== 'required') throw new Error(`APPROVAL_SIGN_IN must be "off" or "required", got "${signIn}"`);
  if (env.APPROVAL_WEBHOOK_URL && !env.APPROVAL_WEBHOOK_SECRET) throw new Error('APPROVAL_WEBHOOK_URL needs APPROVAL_WEBHOOK_SECRET: the key its notices are signed with');
  return {
    ttlSeconds: positiveInt(env, 'APPROVAL_TTL_SECONDS', DEFAULT_APPROVAL_TTL_SECONDS),
    ...(env.APPROVAL_WEBHOOK_URL ? { webhookUrl: env.APPROVAL_WEBHOOK_URL, webhookSecret: env.APPROVAL_WEBHOOK_SECRET! } : {}),
    signIn: signIn === 'required',
  };
}

export function loadAuditConfig(env: Env): AuditConfig {
  return {
    retentionDays: positiveInt(env, 'AUDIT_RETENTION_DAYS', DEFAULT_AUDIT_RETENTION_DAYS),
    ...(env.AUDIT_EXPORT_BUCKET ? { exportBucket: env.AUDIT_EXPORT_BUCKET } : {}),
    ...(env.AUDIT_EXPORT_BUS ? { exportBus: env.AUDIT_EXPORT_BUS } : {}),
  };
}

/** Calls admitted per caller key and platform in any span of `windowSeconds` (a sliding window). */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** The limit of a platform that declares none, and of the cross-platform tool search. */
export const DEFAULT_RATE_LIMIT: RateLimit = { max: 600, windowSeconds: 60 };

/**
 * The limit in force for `platform`: each of max and window from its own variable, else the
 * global one, else the platform's declared default (functions/<p>/index.ts, vendor's published limit).
 */
export function rateLimitFor(config: Config, platform: string, declared: RateLimit = DEFAULT_RATE_LIMIT): RateLimit {
  const own = Object.hasOwn(config.rateLimit.platforms, platform) ? config.rateLimit.platforms[platform]! : {};
  const { global } = config.rateLimit;
  return {
    max: own.max ?? global.max ?? declared.max,
    windowSeconds: own.windowSeconds ?? global.windowSeconds ?? declared.windowSeconds,
  };
}

type Env = Record<string, string | undefined>;

function positiveInt(env: Env, name: string, fallback: number): number;
function positiveInt(env: Env, name: string): number | undefined;
function positiveInt(env: Env, name: string, fallback?: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** The limit variables set in `env` (`<prefix>RATE_LIMIT_MAX`, `<prefix>RATE_LIMIT_WINDOW_SECONDS`), checked. */
function limitOverride(env: Env, prefix: string): Partial<RateLimit> {
  const max = positiveInt(env, `${prefix}RATE_LIMIT_MAX`);
  const windowSeconds = positiveInt(env, `${prefix}RATE_LIMIT_WINDOW_SECONDS`);
  return { ...(max !== undefined ? { max } : {}), ...(windowSeconds !== undefined ? { windowSeconds } : {}) };
}

/** `DBAPP_RATE_LIMIT_MAX` → platforms.dbapp.max, like the base URLs: any platform, no list to keep. */
function platformLimits(env: Env): Record<string, Partial<RateLimit>> {
  const out: Record<string, Partial<RateLimit>> = {};
  for (const name of Object.keys(env)) {
    const m = /^([A-Z][A-Z0-9]*)_RATE_LIMIT_(?:MAX|WINDOW_SECONDS)$/.exec(name);
    if (!m) continue;
    const limit = limitOverride(env, `${m[1]}_`);
    if (Object.keys(limit).length) out[m[1]!.toLowerCase()] = limit;
  }
  return out;
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
      global: limitOverride(env, ''),
      platforms: platformLimits(env),
      onStoreError: storePolicy(env.RATE_LIMIT_ON_STORE_ERROR),
    },
    upstreamTimeoutMs: positiveInt(env, 'UPSTREAM_TIMEOUT_MS', 10_000),
    allowHttpHosts: (env.ALLOW_HTTP_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    baseUrls: baseUrls(env),
    events: loadEventsConfig(env),
    approvals: loadApprovalConfig(env),
    audit: loadAuditConfig(env),
  };
}
