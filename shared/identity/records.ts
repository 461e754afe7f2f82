import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../core/errors';
import type { Store } from '../store';

/**
 * Identity records in the Store port. The port has no queries and every item a TTL, so records
 * that must last take a ten-year TTL, and each listing is one index item (a list of ids) that is
 * changed only under a lease (see withLease): two admins adding keys at once both land.
 */
export const FOREVER_SECONDS = 10 * 365 * 24 * 3600;

export const K = {
  keyByHash: (hash: string) => `idn#key#${hash}`,
  keyById: (id: string) => `idn#keyid#${id}`,
  keysOf: (tenant: string) => `idn#keys#${tenant}`,
  tenants: () => 'idn#tenants',
  connection: (tenant: string, id: string) => `idn#con#${tenant}#${id}`,
  connectionsOf: (tenant: string) => `idn#cons#${tenant}`,
  /** Connect links and vendor OAuth states are keyed by their SHA-256 only (secretHash): a copy of the table holds neither. */
  link: (hash: string) => `idn#link#${hash}`,
  state: (hash: string) => `idn#state#${hash}`,
  stateUsed: (hash: string) => `idn#state-used#${hash}`,
  lease: (name: string) => `idn#lease#${name}`,
  consoleSession: (hash: string) => `idn#console#${hash}`,
} as const;

/** SHA-256 (hex) of a bearer secret (connect-link token, OAuth state): the only form of it the store sees. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A random id with a readable prefix (`con_…`, `key_…`). */
export const newId = (prefix: string, bytes = 12) => `${prefix}_${randomBytes(bytes).toString('hex')}`;

function needsLeases(store: Store): asserts store is Store & Required<Pick<Store, 'putIfAbsent' | 'delete'>> {
  if (!store.putIfAbsent || !store.delete) throw new Error('the identity records need a store with putIfAbsent and delete (memory, DynamoDB)');
}

/**
 * Runs `work` holding the lease `name`: a conditional write that exactly one holder wins (the
 * store's putIfAbsent), released when done and expiring after `ttlSeconds` if its holder dies.
 * Waits for a held lease in growing steps up to `waitMs`; between attempts `settled` may answer
 * in place of the work (another holder already did it), so waiters need not queue for the lease.
 */
export async function withLease<T>(store: Store, name: string, work: () => Promise<T>, opts: { ttlSeconds?: number; waitMs?: number; settled?: () => Promise<T | undefined> } = {}): Promise<T> {
  needsLeases(store);
  const key = K.lease(name);
  const holder = randomBytes(8).toString('hex');
  const until = Date.now() + (opts.waitMs ?? 30_000);
  for (let step = 10; !(await store.putIfAbsent(key, { holder }, opts.ttlSeconds ?? 15)); step = Math.min(step * 2, 100)) {
    if (Date.now() > until) throw new ToolError('INTERNAL_ERROR', 'The identity store is busy (a lease was held too long). Retry in a few seconds.', {});
    await sleep(step);
    const done = await opts.settled?.();
    if (done !== undefined) return done;
  }
  try {
    return await work();
  } finally {
    // Only our own lease: one that expired and was taken by another holder stays.
    if ((await store.get<{ holder: string }>(key))?.holder === holder) await store.delete(key);
  }
}

/** Adds (or removes) `id` in the index list at `key`, under its lease. */
export async function updateIndex(store: Store, key: string, id: string, op: 'add' | 'remove'): Promise<void> {
  await withLease(store, `index#${key}`, async () => {
    const ids = (await store.get<string[]>(key)) ?? [];
    const next = op === 'add' ? (ids.includes(id) ? ids : [...ids, id]) : ids.filter((x) => x !== id);
    if (next !== ids) await store.put(key, next, FOREVER_SECONDS);
  });
}
