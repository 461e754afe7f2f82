import { createHash } from 'node:crypto';
import { ToolError, rateLimited, type ErrorCode, type ErrorDetails } from './errors';
import type { Store } from './store';
import { log } from './log';

/**
 * Idempotency keys: a write sent with `Idempotency-Key` runs once; a repeat with the same
 * key and parameters answers the stored outcome (`Idempotent-Replayed: true`) without calling the
 * vendor. Built on the Store port rather than Powertools' idempotency utility: Powertools keys
 * records by a JMESPath over the Lambda event and wraps a whole handler, while here the key is a
 * header scoped by caller, platform and tool, one Lambda serves HTTP, direct invocation and MCP
 * through one `execute`, and what is kept depends on the outcome (a vendor 4xx yes, a 5xx or a
 * failed validation no); its persistence layer would reduce to the same conditional write, at the
 * cost of its DynamoDB schema and a larger bundle.
 */

/** How long an outcome is replayed (the usual window of payment APIs' keys). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A run's claim lapses after the longest Lambda run, so a crashed run never blocks its key for a day. */
export const CLAIM_TTL_SECONDS = 15 * 60;
/** What a repeat arriving while the first call still runs is told to wait. */
export const IN_PROGRESS_RETRY_AFTER = 2;
export const MAX_KEY_LENGTH = 255;

const PARAM = 'Idempotency-Key';

interface Running {
  state: 'running';
  fingerprint: string;
}

interface Done {
  state: 'done';
  fingerprint: string;
  /** The tool's structured result (JSON), rendered again on replay in the format asked then. */
  result?: unknown;
  error?: { code: ErrorCode; message: string; details: ErrorDetails; headers: Record<string, string> };
}

type Entry = Running | Done;

export interface IdempotencyScope {
  keyHash: string;
  platform: string;
  tool: string;
  /** The caller's Idempotency-Key, checked by checkIdempotencyKey. */
  key: string;
}

/** The key as sent, or INVALID_PARAMETER: printable ASCII, 1-255 characters (as Stripe's). */
export function checkIdempotencyKey(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(raw) || raw.trim() === '') {
    throw new ToolError('INVALID_PARAMETER', `"${PARAM}" (idempotency_key in a direct invocation) must be 1-${MAX_KEY_LENGTH} printable ASCII characters, e.g. a UUID made once per intended write.`, {
      parameter: PARAM,
      expected: `1-${MAX_KEY_LENGTH} printable ASCII characters`,
    });
  }
  return raw;
}

/** Object keys sorted at every level: the same parameters give the same fingerprint in any order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    // Filled key by key rather than from an array of entries: every call's arguments pass here, a batch's thousands of records too.
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[k]);
      // An own "__proto__" key stays a key (as JSON.parse made it), not the copy's prototype.
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    }
    return out;
  }
  return value;
}

export const fingerprint = (input: unknown): string => createHash('sha256').update(JSON.stringify(canonical(input)) ?? '').digest('hex');

/** The Store key: caller, platform and tool in clear (hashes and names), the caller's key hashed. */
export const entryKey = (s: IdempotencyScope): string => `idem#${s.keyHash}#${s.platform}#${s.tool}#${createHash('sha256').update(s.key).digest('hex')}`;

const unguarded = (why: string) =>
  new ToolError('INTERNAL_ERROR', `The idempotency store is unavailable (${why}), so this write was not run: a call with an Idempotency-Key never runs unguarded. Retry later, or send it without the key.`, {
    reason: 'idempotency_store_unavailable',
  });

/** A vendor refusal that a retry cannot change (4xx other than a rate limit) is kept; anything else is not. */
function keepError(err: unknown): err is ToolError {
  if (!(err instanceof ToolError) || err.code === 'RATE_LIMITED') return false;
  const upstream = err.details.upstream_status;
  return typeof upstream === 'number' && upstream >= 400 && upstream < 500;
}

export interface Guarded {
  result: unknown;
  replayed: boolean;
}

/**
 * Runs `work` at most once per scope: claims the key with a conditional write, runs, stores the
 * outcome for 24 h. A repeat answers the stored outcome (a stored error is thrown again with the
 * replay header), a repeat while running is RATE_LIMITED, other parameters are INVALID_PARAMETER.
 */
export async function idempotent(store: Store, scope: IdempotencyScope, input: unknown, work: () => Promise<unknown>, claimSeconds = CLAIM_TTL_SECONDS): Promise<Guarded> {
  if (!store.putIfAbsent || !store.delete) throw unguarded('the store cannot make a conditional write');
  const key = entryKey(scope);
  const print = fingerprint(input);
  for (let attempt = 0; ; attempt++) {
    let claimed: boolean;
    let entry: Entry | undefined;
    try {
      claimed = await store.putIfAbsent(key, { state: 'running', fingerprint: print } satisfies Running, claimSeconds);
      entry = claimed ? undefined : await store.get<Entry>(key);
    } catch (err) {
      log('error', 'idempotency store unavailable', { platform: scope.platform, tool: scope.tool, error: err instanceof Error ? err.name : 'unknown' });
      throw unguarded('it did not answer');
    }
    if (claimed) break;
    // Gone between the claim and the read (a run that failed gave its claim up): claim again.
    if (!entry) {
      if (attempt < 3) continue;
      throw rateLimited(IN_PROGRESS_RETRY_AFTER, `A call with this ${PARAM} is changing state right now; retry in ${IN_PROGRESS_RETRY_AFTER} s.`, { reason: 'idempotency_key_in_use' });
    }
    if (entry.fingerprint !== print) {
      throw new ToolError('INVALID_PARAMETER', `This ${PARAM} was used within the last 24 h for ${scope.platform}/${scope.tool} with other parameters. Use a new key for a different write; repeat a write with exactly its first parameters.`, {
        parameter: PARAM,
        expected: 'a new key, or the parameters first sent with this key',
      });
    }
    if (entry.state === 'running') {
      throw rateLimited(IN_PROGRESS_RETRY_AFTER, `The first call with this ${PARAM} is still running; retry in ${IN_PROGRESS_RETRY_AFTER} s to get its outcome. It is not run twice.`, {
        reason: 'idempotency_key_in_progress',
      });
    }
    if (entry.error) throw new ToolError(entry.error.code, entry.error.message, entry.error.details, { ...entry.error.headers, 'Idempotent-Replayed': 'true' });
    return { result: entry.result, replayed: true };
  }

  let result: unknown;
  try {
    result = await work();
  } catch (err) {
    if (keepError(err)) await settle(store, key, { state: 'done', fingerprint: print, error: { code: err.code, message: err.message, details: err.details, headers: err.headers } }, scope);
    else await release(store, key, scope);
    throw err;
  }
  // Stored as JSON, as DynamoDB keeps it: the replay renders exactly what any store gives back.
  const json = result === undefined ? undefined : (JSON.parse(JSON.stringify(result)) as unknown);
  await settle(store, key, { state: 'done', fingerprint: print, ...(json !== undefined ? { result: json } : {}) }, scope);
  return { result, replayed: false };
}

/** The outcome replaces the claim. A store failure here is logged: the write has happened either way. */
async function settle(store: Store, key: string, done: Done, scope: IdempotencyScope): Promise<void> {
  try {
    await store.put(key, done, IDEMPOTENCY_TTL_SECONDS);
  } catch (err) {
    log('error', 'idempotency outcome not stored', { platform: scope.platform, tool: scope.tool, error: err instanceof Error ? err.name : 'unknown' });
  }
}

/** A failure worth retrying gives the claim up, so the same key can run again at once. */
async function release(store: Store, key: string, scope: IdempotencyScope): Promise<void> {
  try {
    await store.delete!(key);
  } catch (err) {
    log('error', 'idempotency claim not released', { platform: scope.platform, tool: scope.tool, error: err instanceof Error ? err.name : 'unknown' });
  }
}
