import { createHash } from 'node:crypto';
import { ToolError, rateLimited } from './errors';
import { rateLimitFor } from './config';
import { log } from './log';
import type { Runtime } from './runtime';

/** Hashes of the keys a container has seen lately: a warm container serves few keys, each many times. */
const hashes = new Map<string, string>();
const MAX_HASHES = 1_000;

/** The key as the store and the logs know it: its SHA-256, never the key. */
export function hashKey(key: string): string {
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = createHash('sha256').update(key).digest('hex');
    // Bounded: past the limit the oldest entry goes (Map keeps insertion order).
    if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value!);
    hashes.set(key, hash);
  }
  return hash;
}

/**
 * Rate-limit admission: counts one call of the key on the platform and sets the RateLimit-*
 * headers; over the limit it throws RATE_LIMITED. Every keyed answer of a known platform carries
 * the headers.
 */
export async function countCall(rt: Runtime, platform: string, keyHash: string, headers: Record<string, string>): Promise<void> {
  const { onStoreError } = rt.config.rateLimit;
  const { max, windowSeconds } = rateLimitFor(rt.config, platform, rt.registry.platforms.get(platform)?.rateLimit);
  let counter;
  try {
    counter = await rt.store.increment(`rl#${platform}#${keyHash}`, windowSeconds, max);
  } catch (err) {
    // Fail open by default: a store outage must not take every platform down with it.
    log('error', 'rate-limit store unavailable', { platform, policy: onStoreError, error: err instanceof Error ? err.name : 'unknown' });
    if (onStoreError === 'open') return;
    throw new ToolError('INTERNAL_ERROR', 'The rate-limit store is unavailable and this deployment refuses uncounted calls (RATE_LIMIT_ON_STORE_ERROR=closed). Retry later.', {});
  }
  headers['RateLimit-Limit'] = String(counter.limit);
  headers['RateLimit-Remaining'] = String(counter.remaining);
  headers['RateLimit-Reset'] = String(counter.resetSeconds);
  if (!counter.allowed) {
    throw rateLimited(counter.resetSeconds, `Rate limit of ${max} calls per ${windowSeconds} s for this key on "${platform}" reached; retry after ${counter.resetSeconds} s.`, {
      limit: max,
      window_seconds: windowSeconds,
    });
  }
}
