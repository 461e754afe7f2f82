/**
 * A secret of the event inbox (a vendor app's signing secret, a developer key, a webhook signature
 * key): given in the environment as `<NAME>` for local runs, or as `<NAME>_PARAMETER`, the name of
 * an SSM Parameter Store SecureString — how a deployment keeps it (serverless.yml). A parameter is
 * read on first use and kept for the container's life (shared/aws/ssm.ts caches it).
 */
export type SecretSource = { value: string } | { parameter: string };

/** `<name>` (the value) wins over `<name>_PARAMETER` (where it is); neither set: undefined. */
export function secretFrom(env: Env, name: string): SecretSource | undefined {
  const value = env[name];
  if (value) return { value };
  const parameter = env[`${name}_PARAMETER`]?.trim();
  return parameter ? { parameter } : undefined;
}

/**
 * The event inbox's settings (README "Event inbox"), read from the environment with the rest of
 * the configuration (shared/core/config.ts). Everything is optional: without EVENTS_BASE_URL the
 * receiver still answers, but subscribeEvents cannot tell a vendor where to deliver.
 */
export interface EventsConfig {
  /** EVENTS_BASE_URL: the public base of this deployment (the receiver is `<base>/v1/events/…`). */
  baseUrl?: string;
  /** EVENTS_TTL_SECONDS: how long a stored event is kept (default 7 days; DynamoDB TTL). */
  ttlSeconds: number;
  /** EVENTS_VERIFY_WAIT_MS: how long subscribeEvents waits for a vendor's verification POST (default 15 s). */
  verifyWaitMs: number;
  /** EVENTS_MAX_BODY_BYTES: the largest delivery accepted (default 1 MB). */
  maxBodyBytes: number;
  /** EVENTS_SQS_QUEUE_URL / EVENTS_BUS_NAME: where each new event is also sent (off when unset). */
  fanout: { queueUrl?: string; busName?: string };
  /**
   * Per platform whose vendor signs deliveries with an app's secret (HubSpot): the app the service
   * subscribes through, from `<PLATFORM>_EVENTS_APP_ID`, `_DEVELOPER_KEY` and `_CLIENT_SECRET`
   * (each secret also as `…_PARAMETER`, an SSM SecureString: shared/events/secrets.ts).
   */
  apps: Record<string, { appId: string; developerKey: SecretSource; clientSecret: SecretSource }>;
  /**
   * Per platform whose vendor signs payloads with keys of its own making (ShareFile's webhook
   * client): `<PLATFORM>_EVENTS_SIGNATURE_KEY` and, while keys rotate, `_SECONDARY_SIGNATURE_KEY`
   * (each also as `…_PARAMETER`). Set: every delivery must carry a matching signature.
   */
  signatureKeys: Record<string, { primary: SecretSource; secondary?: SecretSource }>;
}

export const DEFAULT_EVENT_TTL_SECONDS = 7 * 24 * 3600;
export const DEFAULT_MAX_DELIVERY_BYTES = 1_000_000;

type Env = Record<string, string | undefined>;

function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

export function loadEventsConfig(env: Env): EventsConfig {
  const apps: EventsConfig['apps'] = {};
  const signatureKeys: EventsConfig['signatureKeys'] = {};
  for (const name of Object.keys(env)) {
    const app = /^([A-Z][A-Z0-9]*)_EVENTS_APP_ID$/.exec(name)?.[1];
    if (app) {
      const appId = env[name] ?? '';
      const developerKey = secretFrom(env, `${app}_EVENTS_DEVELOPER_KEY`);
      const clientSecret = secretFrom(env, `${app}_EVENTS_CLIENT_SECRET`);
      if (appId && developerKey && clientSecret) apps[app.toLowerCase()] = { appId, developerKey, clientSecret };
    }
    const signed = /^([A-Z][A-Z0-9]*)_EVENTS_SIGNATURE_KEY(?:_PARAMETER)?$/.exec(name)?.[1];
    const primary = signed ? secretFrom(env, `${signed}_EVENTS_SIGNATURE_KEY`) : undefined;
    if (signed && primary) {
      const secondary = secretFrom(env, `${signed}_EVENTS_SECONDARY_SIGNATURE_KEY`);
      signatureKeys[signed.toLowerCase()] = { primary, ...(secondary ? { secondary } : {}) };
    }
  }
  const baseUrl = env.EVENTS_BASE_URL?.trim().replace(/\/+$/, '');
  return {
    ...(baseUrl ? { baseUrl } : {}),
    ttlSeconds: positive(env, 'EVENTS_TTL_SECONDS', DEFAULT_EVENT_TTL_SECONDS),
    maxBodyBytes: positive(env, 'EVENTS_MAX_BODY_BYTES', DEFAULT_MAX_DELIVERY_BYTES),
    verifyWaitMs: positive(env, 'EVENTS_VERIFY_WAIT_MS', 15_000),
    fanout: {
      ...(env.EVENTS_SQS_QUEUE_URL ? { queueUrl: env.EVENTS_SQS_QUEUE_URL } : {}),
      ...(env.EVENTS_BUS_NAME ? { busName: env.EVENTS_BUS_NAME } : {}),
    },
    apps,
    signatureKeys,
  };
}
