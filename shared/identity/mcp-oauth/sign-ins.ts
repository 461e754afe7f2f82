import type { Store } from '../../store';
import { FOREVER_SECONDS } from '../records';
import type { Policy } from '../policy';

/**
 * The built-in authorization server's sign-ins as the admin API lists them (GET
 * /v1/admin/oauth/grants, /v1/admin/oauth/clients). A sign-in is a grant's family: one
 * authorization and every token pair its refreshes made. Its tokens are kept by hash only
 * (grants.ts), so nothing lists them; this index keeps what a listing shows, never a token:
 *
 * - `idn#oasignin#<family>`: the sign-in (tenant, key, connection, client, what it shares), kept
 *   as long as its refresh token lives and renewed by each refresh, so it goes when the sign-in
 *   ends unused;
 * - `idn#oasignins#<tenant>` (a counter) and `idn#oasignins#<tenant>#<n>` → family: the tenant's
 *   sign-ins in order;
 * - `idn#oaclients` and `idn#oaclients#<n>` → client id: registered clients in order.
 */
export interface SignInRecord {
  /** `gnt_<family>`: what the admin API names and revokes it by. */
  id: string;
  tenant: string;
  key_id?: string;
  connection: string;
  client_id: string;
  resource: string;
  /** Every endpoint the sign-in covers, when more than `resource` (the one signed in at). */
  resources?: string[];
  /** The account on each platform it covers, by platform, when more than one (the console names them). */
  accounts?: Record<string, string>;
  platforms: string[];
  toolsets?: string[];
  read_only: boolean;
  created_at: string;
  refreshed_at: string;
}

const S = {
  signIn: (family: string) => `idn#oasignin#${family}`,
  seq: (tenant: string) => `idn#oasignins#${tenant}`,
  slot: (tenant: string, n: number) => `idn#oasignins#${tenant}#${n}`,
  clients: () => 'idn#oaclients',
  client: (n: number) => `idn#oaclients#${n}`,
};

/** Read at most this many entries of one index per listing: a listing is for people, not a scan. */
export const MAX_LISTED = 1000;

/** What a sign-in starts from: a grant (grants.ts) and its family. */
interface Started {
  tenant: string;
  key_id?: string | undefined;
  connection: string;
  client_id: string;
  resource: string;
  resources?: string[] | undefined;
  accounts?: Record<string, string> | undefined;
  policy: Policy;
  family: string;
}

export const signInId = (family: string) => `gnt_${family}`;
export const familyOf = (id: string): string | undefined => (/^gnt_[0-9a-f]{24}$/.test(id) ? id.slice(4) : undefined);

export class SignIns {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** How long a sign-in lives unused: its refresh token's lifetime. */
    private readonly seconds: number,
  ) {}

  private async append(seq: string, slot: (n: number) => string, value: string): Promise<void> {
    if (!this.store.add) return;
    const n = await this.store.add(seq, 1, FOREVER_SECONDS);
    await this.store.put(slot(n), value, FOREVER_SECONDS);
  }

  /** A new sign-in (an authorization code exchanged): kept and entered in its tenant's index. */
  async started(grant: Started): Promise<void> {
    const at = new Date(this.now()).toISOString();
    const record: SignInRecord = {
      id: signInId(grant.family),
      tenant: grant.tenant,
      ...(grant.key_id !== undefined ? { key_id: grant.key_id } : {}),
      connection: grant.connection,
      client_id: grant.client_id,
      resource: grant.resource,
      ...(grant.resources && grant.resources.length > 1 ? { resources: grant.resources } : {}),
      ...(grant.accounts && Object.keys(grant.accounts).length > 1 ? { accounts: grant.accounts } : {}),
      platforms: grant.policy.platforms,
      ...(grant.policy.toolsets ? { toolsets: grant.policy.toolsets } : {}),
      read_only: grant.policy.read_only,
      created_at: at,
      refreshed_at: at,
    };
    await this.store.put(S.signIn(grant.family), record, this.seconds);
    await this.append(S.seq(grant.tenant), (n) => S.slot(grant.tenant, n), grant.family);
  }

  /** A refresh: the sign-in lives another refresh-token lifetime. */
  async refreshed(family: string): Promise<void> {
    const record = await this.store.get<SignInRecord>(S.signIn(family));
    if (record) await this.store.put(S.signIn(family), { ...record, refreshed_at: new Date(this.now()).toISOString() }, this.seconds);
  }

  get(family: string): Promise<SignInRecord | undefined> {
    return this.store.get<SignInRecord>(S.signIn(family));
  }

  /** A dynamically registered client, entered in the clients' index. */
  registered(clientId: string): Promise<void> {
    return this.append(S.clients(), S.client, clientId);
  }

  /** The tenant's live sign-ins, newest first. */
  async ofTenant(tenant: string): Promise<SignInRecord[]> {
    const families = await this.members(S.seq(tenant), (n) => S.slot(tenant, n));
    const records = await this.many<SignInRecord>(families.map(S.signIn));
    return records.filter((r): r is SignInRecord => r !== undefined && r.tenant === tenant);
  }

  /** Registered client ids, newest first (each once). */
  async clientIds(): Promise<string[]> {
    return [...new Set(await this.members(S.clients(), S.client))];
  }

  private async members(seq: string, slot: (n: number) => string): Promise<string[]> {
    const count = this.store.count ? await this.store.count(seq) : 0;
    const slots = Array.from({ length: Math.min(count, MAX_LISTED) }, (_, i) => count - i);
    return (await this.many<string>(slots.map(slot))).filter((v): v is string => typeof v === 'string');
  }

  private many<T>(keys: string[]): Promise<(T | undefined)[]> {
    return this.store.getMany ? this.store.getMany<T>(keys) : Promise.all(keys.map((k) => this.store.get<T>(k)));
  }
}
