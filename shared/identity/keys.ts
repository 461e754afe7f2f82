import { createHash, randomBytes } from 'node:crypto';
import { ToolError } from '../core/errors';
import type { Store } from '../store';
import { checkKnown, parsePolicy, type Policy } from './policy';
import { FOREVER_SECONDS, K, newId, updateIndex } from './records';

/** Service keys start with this; anything else is a vendor key passed through. */
export const SERVICE_KEY_PREFIX = 'tes_';

/**
 * How long a looked-up key is trusted in one process: a revocation reaches every container
 * within this bound (each looks the key up again when its entry ages out).
 */
export const KEY_CACHE_SECONDS = 30;

/** A service key as stored: never the key itself, only its SHA-256. */
export interface KeyRecord {
  id: string;
  tenant: string;
  name: string;
  policy: Policy;
  created_at: string;
  expires_at?: string;
  revoked_at?: string;
  /** The key this one replaced (rotation). */
  rotated_from?: string;
}

/** A key as listed: the record without anything secret (there is nothing secret in it). */
export type KeyView = KeyRecord & { status: 'active' | 'revoked' | 'expired' };

export const isServiceKey = (key: string) => key.startsWith(SERVICE_KEY_PREFIX);

/** SHA-256 of the key, hex: the only form of a key the store ever sees. */
export const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

const TENANT = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

export function checkTenant(tenant: unknown, parameter = 'tenant'): string {
  if (typeof tenant !== 'string' || !TENANT.test(tenant)) {
    throw new ToolError('INVALID_PARAMETER', `"${parameter}" must be 1-64 letters, digits, "_", "." or "-", starting with a letter or digit.`, { parameter, expected: 'tenant name' });
  }
  return tenant;
}

function checkExpiry(raw: unknown, now: number): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const t = typeof raw === 'string' ? Date.parse(raw) : NaN;
  if (!Number.isFinite(t) || t <= now) {
    throw new ToolError('INVALID_PARAMETER', '"expires_at" must be a future ISO 8601 time, e.g. "2027-01-31T00:00:00Z".', { parameter: 'expires_at', expected: 'future ISO 8601 time' });
  }
  return new Date(t).toISOString();
}

export function statusOf(r: KeyRecord, now: number): KeyView['status'] {
  if (r.revoked_at) return 'revoked';
  if (r.expires_at && Date.parse(r.expires_at) <= now) return 'expired';
  return 'active';
}

export interface NewKey {
  tenant: unknown;
  name?: unknown;
  policy: unknown;
  expires_at?: unknown;
}

/** The service keys of one store: created, looked up (cached), listed, rotated and revoked. */
export class ServiceKeys {
  private readonly cache = new Map<string, { record: KeyRecord | undefined; at: number }>();
  private readonly byId = new Map<string, { view: KeyView | undefined; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Each platform's toolsets (its descriptor's): a new key's policy may name only these. */
    private readonly known?: ReadonlyMap<string, readonly string[]>,
  ) {}

  /** Creates a key; the answer is the only place the key itself ever appears. */
  async create(input: NewKey, rotatedFrom?: string): Promise<{ key: string; record: KeyView }> {
    const now = this.now();
    const tenant = checkTenant(input.tenant);
    const name = input.name === undefined ? '' : String(input.name).slice(0, 100);
    // A rotation keeps the old key's policy as it is, even one made before names were checked.
    const parsed = parsePolicy(input.policy);
    const policy = rotatedFrom || !this.known ? parsed : checkKnown(parsed, this.known);
    const expires = checkExpiry(input.expires_at, now);
    // 192 random bits, base64url: far above the 128 a guess would have to beat.
    const key = `${SERVICE_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
    const record: KeyRecord = { id: newId('key', 8), tenant, name, policy, created_at: new Date(now).toISOString(), ...(expires ? { expires_at: expires } : {}), ...(rotatedFrom ? { rotated_from: rotatedFrom } : {}) };
    const hash = keyHash(key);
    await this.store.put(K.keyByHash(hash), record, FOREVER_SECONDS);
    await this.store.put(K.keyById(record.id), { hash, tenant }, FOREVER_SECONDS);
    await updateIndex(this.store, K.keysOf(tenant), record.id, 'add');
    await updateIndex(this.store, K.tenants(), tenant, 'add');
    return { key, record: { ...record, status: 'active' } };
  }

  /** The active key for a presented `tes_…` key, or UNAUTHORIZED. Cached for KEY_CACHE_SECONDS. */
  async authenticate(key: string): Promise<KeyRecord> {
    const hash = keyHash(key);
    const now = this.now();
    let hit = this.cache.get(hash);
    if (!hit || now - hit.at >= KEY_CACHE_SECONDS * 1000) {
      hit = { record: await this.store.get<KeyRecord>(K.keyByHash(hash)), at: now };
      this.cache.set(hash, hit);
      if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    }
    const record = hit.record;
    const status = record ? statusOf(record, now) : 'unknown';
    if (!record || status !== 'active') {
      throw new ToolError('UNAUTHORIZED', status === 'unknown' ? 'Unknown service key. Ask your administrator for a key (npm run keys -- create).' : `This service key is ${status}. Ask your administrator for a new one.`, {
        header: 'Authorization',
      });
    }
    return record;
  }

  /** A key by id as a sign-in's calls read it (the key it was granted with): cached for KEY_CACHE_SECONDS, as authenticate. */
  async current(id: string): Promise<KeyView | undefined> {
    const now = this.now();
    let hit = this.byId.get(id);
    if (!hit || now - hit.at >= KEY_CACHE_SECONDS * 1000) {
      hit = { view: await this.get(id), at: now };
      this.byId.set(id, hit);
      if (this.byId.size > 10_000) this.byId.delete(this.byId.keys().next().value!);
    }
    // Its status as of now: an expiry passed since it was read counts at once.
    return hit.view && { ...hit.view, status: statusOf(hit.view, now) };
  }

  async get(id: string): Promise<KeyView | undefined> {
    const ref = await this.store.get<{ hash: string }>(K.keyById(id));
    const record = ref && (await this.store.get<KeyRecord>(K.keyByHash(ref.hash)));
    return record ? { ...record, status: statusOf(record, this.now()) } : undefined;
  }

  /** The keys of one tenant, or of every tenant. */
  async list(tenant?: string): Promise<KeyView[]> {
    const tenants = tenant ? [checkTenant(tenant)] : ((await this.store.get<string[]>(K.tenants())) ?? []);
    const out: KeyView[] = [];
    for (const t of tenants) {
      for (const id of (await this.store.get<string[]>(K.keysOf(t))) ?? []) {
        const view = await this.get(id);
        if (view) out.push(view);
      }
    }
    return out;
  }

  /** Revokes a key: refused everywhere within KEY_CACHE_SECONDS, at once in this process. */
  async revoke(id: string): Promise<KeyView> {
    const ref = await this.store.get<{ hash: string }>(K.keyById(id));
    const record = ref && (await this.store.get<KeyRecord>(K.keyByHash(ref.hash)));
    if (!ref || !record) throw new ToolError('NOT_FOUND', `No service key "${id}". List the keys with GET /v1/admin/keys.`, { key_id: id });
    if (!record.revoked_at) {
      record.revoked_at = new Date(this.now()).toISOString();
      await this.store.put(K.keyByHash(ref.hash), record, FOREVER_SECONDS);
    }
    this.cache.delete(ref.hash);
    this.byId.delete(id);
    return { ...record, status: 'revoked' };
  }

  /** A new key with the same tenant, name, policy and expiry; the old one is revoked. */
  async rotate(id: string): Promise<{ key: string; record: KeyView }> {
    const old = await this.get(id);
    if (!old) throw new ToolError('NOT_FOUND', `No service key "${id}". List the keys with GET /v1/admin/keys.`, { key_id: id });
    if (old.status !== 'active') throw new ToolError('INVALID_PARAMETER', `Key "${id}" is ${old.status}; only an active key can be rotated. Create a new one instead.`, { parameter: 'key_id', expected: 'an active key' });
    const created = await this.create({ tenant: old.tenant, name: old.name, policy: old.policy, expires_at: old.expires_at }, id);
    await this.revoke(id);
    return created;
  }
}
