import { ToolError } from '../core/errors';
import type { Store } from '../store';
import type { AuthKind, VendorAccount } from './providers';
import { FOREVER_SECONDS, K, newId, updateIndex } from './records';
import type { Sealed, Vault } from './vault';

/** What a connection holds for its end user, sealed in the vault; never logged, never listed. */
export type Credential =
  | { kind: 'api_key'; api_key: string }
  | { kind: 'oauth'; access_token: string; refresh_token?: string; expires_at?: number };

export type ConnectionStatus = 'pending' | 'active' | 'needs_reauth';

/** One end user's account on one platform, inside a tenant. */
export interface ConnectionRecord {
  id: string;
  tenant: string;
  platform: string;
  end_user: string;
  kind: AuthKind;
  status: ConnectionStatus;
  created_at: string;
  updated_at: string;
  /** The account's own API host (ShareFile: https://{subdomain}.sf-api.com). */
  base_url?: string;
  /** Callback values the vendor's token URL needs again on refresh (ShareFile's subdomain). */
  vendor?: Record<string, string>;
  /** Who the account is at the vendor (name, e-mail, portal), as far as it tells: for the pages. */
  account?: VendorAccount;
  /** When the access token expires (epoch ms), readable without opening the vault. */
  access_expires_at?: number;
  /** Bumped on every credential change: a refresh that finds a newer version uses it instead. */
  version: number;
  sealed?: Sealed;
}

/** A connection as the API shows it: no credential, sealed or not. */
export type ConnectionView = Omit<ConnectionRecord, 'sealed' | 'vendor'>;

export const view = ({ sealed: _s, vendor: _v, ...rest }: ConnectionRecord): ConnectionView => rest;

/** How long an opened credential stays in this process, per connection version. */
const OPENED_SECONDS = 60;

/**
 * How long the call path trusts a connection record it read (a store round trip saved per call):
 * a connection deleted elsewhere stops working within this bound; a refresh done elsewhere is
 * picked up at the latest on the vendor's 401 (Identity.refresh finds the newer version).
 */
export const CONNECTION_CACHE_SECONDS = 30;

/** Connection records of a store, their credentials sealed by the vault. */
export class Connections {
  private readonly opened = new Map<string, { version: number; credential: Credential; at: number }>();
  private readonly records = new Map<string, { record: ConnectionRecord | undefined; at: number }>();

  constructor(
    private readonly store: Store,
    /** Built on first use: a process that never opens a credential never loads KMS or the key file. */
    private readonly vault: () => Promise<Vault>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(tenant: string, platform: string, endUser: string, kind: AuthKind): Promise<ConnectionRecord> {
    const at = new Date(this.now()).toISOString();
    const record: ConnectionRecord = { id: newId('con'), tenant, platform, end_user: endUser, kind, status: 'pending', created_at: at, updated_at: at, version: 0 };
    await this.store.put(K.connection(tenant, record.id), record, FOREVER_SECONDS);
    await updateIndex(this.store, K.connectionsOf(tenant), record.id, 'add');
    return record;
  }

  /** The tenant's connection; another tenant's id is as unknown as one that never existed. */
  async get(tenant: string, id: string): Promise<ConnectionRecord | undefined> {
    if (!/^con_[0-9a-f]{24}$/.test(id)) return undefined;
    const record = await this.store.get<ConnectionRecord>(K.connection(tenant, id));
    // The freshest copy: the call path's cache takes it too.
    this.remember(tenant, id, record);
    return record;
  }

  /** The tenant's connection as the call path reads it: cached for CONNECTION_CACHE_SECONDS. */
  async cached(tenant: string, id: string): Promise<ConnectionRecord | undefined> {
    const key = `${tenant}#${id}`;
    const hit = this.records.get(key);
    if (hit && this.now() - hit.at < CONNECTION_CACHE_SECONDS * 1000) return hit.record;
    return this.get(tenant, id);
  }

  private remember(tenant: string, id: string, record: ConnectionRecord | undefined): void {
    this.records.set(`${tenant}#${id}`, { record, at: this.now() });
    if (this.records.size > 10_000) this.records.delete(this.records.keys().next().value!);
  }

  async require(tenant: string, id: string, parameter = 'connection_id', cached = false): Promise<ConnectionRecord> {
    const found = cached ? await this.cached(tenant, id) : await this.get(tenant, id);
    if (!found) throw new ToolError('NOT_FOUND', `No connection "${id}" for this key's tenant. List them with GET /v1/connections.`, { [parameter]: id });
    return found;
  }

  async list(tenant: string, filter: { platform?: string; end_user?: string } = {}): Promise<ConnectionRecord[]> {
    const ids = (await this.store.get<string[]>(K.connectionsOf(tenant))) ?? [];
    const all = await Promise.all(ids.map((id) => this.get(tenant, id)));
    return all.filter((c): c is ConnectionRecord => !!c && (!filter.platform || c.platform === filter.platform) && (!filter.end_user || c.end_user === filter.end_user));
  }

  /** Seals and stores a new credential (connect, refresh): the connection turns active. */
  async saveCredential(record: ConnectionRecord, credential: Credential, extra: Partial<Pick<ConnectionRecord, 'base_url' | 'vendor' | 'kind' | 'account'>> = {}): Promise<ConnectionRecord> {
    const sealed = await (await this.vault()).seal(JSON.stringify(credential), { tenant: record.tenant, connection: record.id });
    const next: ConnectionRecord = {
      ...record,
      ...extra,
      status: 'active',
      updated_at: new Date(this.now()).toISOString(),
      version: record.version + 1,
      sealed,
    };
    if (credential.kind === 'oauth' && credential.expires_at !== undefined) next.access_expires_at = credential.expires_at;
    else delete next.access_expires_at;
    await this.store.put(K.connection(record.tenant, record.id), next, FOREVER_SECONDS);
    this.opened.set(record.id, { version: next.version, credential, at: this.now() });
    this.remember(record.tenant, record.id, next);
    return next;
  }

  async setStatus(record: ConnectionRecord, status: ConnectionStatus): Promise<ConnectionRecord> {
    const next = { ...record, status, updated_at: new Date(this.now()).toISOString() };
    await this.store.put(K.connection(record.tenant, record.id), next, FOREVER_SECONDS);
    this.remember(record.tenant, record.id, next);
    return next;
  }

  /** The credential of a connection, opened once per version and kept briefly in this process. */
  async open(record: ConnectionRecord): Promise<Credential> {
    if (!record.sealed) throw new ToolError('UNAUTHORIZED', `Connection "${record.id}" holds no credential yet; finish connecting it first.`, { connection_id: record.id });
    const hit = this.opened.get(record.id);
    if (hit && hit.version === record.version && this.now() - hit.at < OPENED_SECONDS * 1000) return hit.credential;
    const credential = JSON.parse(await (await this.vault()).open(record.sealed, { tenant: record.tenant, connection: record.id })) as Credential;
    this.opened.set(record.id, { version: record.version, credential, at: this.now() });
    if (this.opened.size > 10_000) this.opened.delete(this.opened.keys().next().value!);
    return credential;
  }

  async remove(record: ConnectionRecord): Promise<void> {
    await this.store.delete?.(K.connection(record.tenant, record.id));
    await updateIndex(this.store, K.connectionsOf(record.tenant), record.id, 'remove');
    this.opened.delete(record.id);
    this.remember(record.tenant, record.id, undefined);
  }
}
