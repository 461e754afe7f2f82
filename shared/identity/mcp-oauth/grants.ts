import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ToolError } from '../../core/errors';
import { fetchUrl } from '../../vendor/fetch-url';
import { KEY_CACHE_SECONDS, type KeyRecord } from '../keys';
import type { Policy } from '../policy';
import type { Store } from '../../store';
import { platformOfResource } from './resource';
import { parseScope, platformOfScope, toolsetOfScope, type Scopes } from './scopes';
import { SignIns } from './sign-ins';

/**
 * The built-in authorization server's records (MCP authorization, 2025-11-25 and 2026-07-28:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization): registered
 * clients, authorization codes, access and refresh tokens. Codes and tokens are kept only as
 * their SHA-256 in the Store; the token itself appears once, in the token endpoint's answer.
 * Each record names the issuer (this deployment's URL) it was made at, and is refused at any
 * other: one store may serve a deployment under several URLs (docs/identity.md).
 */

/** An access token lives an hour; a host refreshes it (RFC 6749 §6) without the user. */
export const ACCESS_SECONDS = 3600;
/** A refresh token lasts thirty days and is single use: every refresh rotates it. */
export const REFRESH_SECONDS = 30 * 24 * 3600;
/** An authorization code is exchanged within a minute, once. */
export const CODE_SECONDS = 60;
/** The consent page's sign-in lasts ten minutes. */
export const CONSENT_SECONDS = 600;

/**
 * Client metadata is bounded so a registration always fits one store item (DynamoDB: 400 KB): the
 * document (a registration's body, a fetched client metadata document) at most this many bytes,
 * at most MAX_REDIRECT_URIS redirect URIs of MAX_URI_CHARS each, a name of MAX_NAME_CHARS.
 */
export const MAX_CLIENT_METADATA_BYTES = 32 * 1024;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_CHARS = 2000;
const MAX_NAME_CHARS = 200;

export const ACCESS_PREFIX = 'tat_';
const REFRESH_PREFIX = 'trt_';
const REGISTRATION_PREFIX = 'tra_';

export const isAccessToken = (token: string) => token.startsWith(ACCESS_PREFIX);

/**
 * The authorization server's tokens that are never bearer credentials of a call (a refresh token,
 * a registration access token), by prefix: the kind, to name in a refusal; undefined for any other.
 */
export function tokenKindOf(token: string): string | undefined {
  if (token.startsWith(REFRESH_PREFIX)) return `refresh token (${REFRESH_PREFIX}…)`;
  if (token.startsWith(REGISTRATION_PREFIX)) return `registration access token (${REGISTRATION_PREFIX}…)`;
  return undefined;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

const R = {
  client: (id: string) => `idn#oacl#${id}`,
  code: (hash: string) => `idn#oacode#${hash}`,
  codeUsed: (hash: string) => `idn#oacode-used#${hash}`,
  access: (hash: string) => `idn#oaat#${hash}`,
  refresh: (hash: string) => `idn#oart#${hash}`,
  refreshUsed: (hash: string) => `idn#oart-used#${hash}`,
  consent: (id: string) => `idn#oaconsent#${id}`,
  revoked: (family: string) => `idn#oafam-revoked#${family}`,
  clientDeleted: (id: string) => `idn#oacl-deleted#${id}`,
} as const;

/** An OAuth error as RFC 6749 §5.2 answers it (the token and registration endpoints). */
export class OAuthError extends Error {
  constructor(
    readonly code: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_target' | 'invalid_scope' | 'invalid_client_metadata' | 'invalid_redirect_uri',
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface ClientRecord {
  client_id: string;
  redirect_uris: string[];
  client_name?: string;
  /** OpenID Connect Dynamic Client Registration, section 2: the kind of client, which decides the redirect URIs it may register (redirectRules). */
  application_type?: ApplicationType;
  /** The issuer it registered at; absent on a Client ID Metadata Document (portable) and on records made before issuers were kept. */
  issuer?: string;
  /** SHA-256 of the registration access token (RFC 7592) of a dynamically registered client. */
  registration_hash?: string;
}

/** A registered client as RFC 7591/7592 answer it: never the stored hash. */
type ClientAnswer = Omit<ClientRecord, 'registration_hash' | 'issuer'> & { client_id_issued_at?: number; token_endpoint_auth_method: 'none'; grant_types: string[]; response_types: string[] };
/** A registration's or update's answer: the metadata, and the (new) registration access token with its URI. */
type RegisteredAnswer = ClientAnswer & { registration_access_token: string; registration_client_uri: string };

/**
 * What the user granted a host: one connection of a tenant, a policy no wider than the service
 * key's the user signed in with — or, signed in by connecting the account (MCP_CONNECT_SIGN_IN),
 * no key, and a policy no wider than that setting's.
 */
export interface Grant {
  tenant: string;
  key_id?: string;
  connection: string;
  policy: Policy;
  /**
   * The MCP endpoint the tokens are for (RFC 8707 audience): the one signed in at, or, on a token,
   * the one of the set it was issued for.
   */
  resource: string;
  /**
   * Every endpoint of this deployment the sign-in covers (the consent page's "Use this sign-in
   * for"), `resource` among them; absent: `resource` only. Each token is still for one of them.
   */
  resources?: string[];
  /** The account on each platform the sign-in covers, by platform (`connection` is the one of the endpoint signed in at); absent: `connection` only. */
  accounts?: Record<string, string>;
  client_id: string;
  /** Every token pair descending from one authorization: revoked together when a spent refresh token comes back. */
  family?: string;
  /** The issuer that granted it; its codes and refresh tokens are refused at any other (absent on grants made before issuers were kept). */
  issuer?: string;
}

interface CodeRecord extends Grant {
  redirect_uri: string;
  challenge: string;
}

interface TokenRecord extends Grant {
  expires_at: number;
}

/** A pending authorization request, as the consent page carries it between its two steps. */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  state?: string;
  challenge: string;
  resource: string;
  /** The toolsets the host asked for (`scope`, checked against scopes.ts): the consent page starts with them chosen. */
  scope?: string[];
}

export interface ConsentRecord {
  request: AuthorizationRequest;
  tenant: string;
  /** The service key the user signed in with; absent when they signed in by connecting an account. */
  key_id?: string;
  /** The account connected on the consent page: the only one the grant may name. */
  connection?: string;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** The toolsets the grant shares (RFC 6749 §5.1), which may be fewer than the host asked for. */
  scope: string;
}

/** What the authorization server needs of the identity it serves (shared/identity/identity.ts): its store, clock and local hosts. */
export interface GrantsHost {
  readonly store: Store;
  now(): number;
  readonly allowHttpHosts: readonly string[];
  readonly scopes: Scopes;
  /** The service keys: a refresh of a grant whose key is no longer active is refused. */
  readonly keys: { get(id: string): Promise<{ status: string } | undefined> };
}

/** The authorization server over one identity (its store and clock). */
export class Grants {
  /** Client metadata documents fetched, kept as their HTTP caching headers allow (documentCacheUntil). */
  private readonly documents = new Map<string, { client: ClientRecord; until: number }>();
  /** Access tokens verified lately, by hash: their record and whether their sign-in was revoked, as read at `at`. */
  private readonly verified = new Map<string, { record: TokenRecord | undefined; revoked: boolean; at: number }>();
  /** What the admin API lists of sign-ins and registered clients (sign-ins.ts): never a token. */
  readonly signIns: SignIns;

  constructor(private readonly id: GrantsHost) {
    this.signIns = new SignIns(id.store, () => id.now(), REFRESH_SECONDS);
  }

  private get store() {
    return this.id.store;
  }

  /** RFC 7591 dynamic registration: a public client (PKCE, no secret) with its redirect URIs. */
  async register(meta: Record<string, unknown>, registrationUri: (clientId: string) => string, issuer: string): Promise<RegisteredAnswer> {
    const metadata = clientMetadata(meta);
    // RFC 7592: the token that lets the client read, update or delete its own registration.
    const registration = secret(REGISTRATION_PREFIX);
    const record: ClientRecord = { client_id: `mcp_${randomBytes(16).toString('hex')}`, ...metadata, issuer, registration_hash: sha(registration) };
    await this.store.put(R.client(record.client_id), record, REFRESH_SECONDS);
    await this.signIns.registered(record.client_id);
    return { ...answer(record), client_id_issued_at: Math.floor(this.id.now() / 1000), registration_access_token: registration, registration_client_uri: registrationUri(record.client_id) };
  }

  /**
   * RFC 7592 §2.2: the holder of the registration access token replaces the client's metadata,
   * checked as a registration is; what the body leaves out is gone. The client id stays. The
   * registration access token is rotated (RFC 7592 §3 allows it): the answer carries the new one, and the
   * old one stops working, so a copy of it cannot change the client again. Codes issued for a
   * redirect URI the update removes are refused at the token endpoint (exchangeCode).
   * Call only after `registered` accepted the token.
   */
  async update(clientId: string, meta: Record<string, unknown>, registrationUri: (clientId: string) => string, issuer: string): Promise<RegisteredAnswer> {
    // RFC 7592 §2.2: the body carries the client's own client_id; anything it holds besides metadata (the token, its URI, issued_at) is ignored.
    if (meta.client_id !== clientId) throw new OAuthError('invalid_client_metadata', `"client_id" must be this client's own ("${clientId}"): a client id cannot change. Send the full metadata as a read (GET) answers it, changed where you mean to.`);
    const metadata = clientMetadata(meta);
    const registration = secret(REGISTRATION_PREFIX);
    const record: ClientRecord = { client_id: clientId, ...metadata, issuer, registration_hash: sha(registration) };
    await this.store.put(R.client(clientId), record, REFRESH_SECONDS);
    return { ...answer(record), registration_access_token: registration, registration_client_uri: registrationUri(clientId) };
  }

  /** RFC 7592 §2: a registered client's own record, for the holder of its registration access token at its issuer; undefined when the token does not fit. */
  async registered(clientId: string, registrationToken: string | undefined, issuer: string): Promise<ClientAnswer | undefined> {
    const found = await this.store.get<ClientRecord>(R.client(clientId));
    if (!found?.registration_hash || !registrationToken || !sameIssuer(found, issuer)) return undefined;
    const a = Buffer.from(found.registration_hash);
    const b = Buffer.from(sha(registrationToken));
    return a.length === b.length && timingSafeEqual(a, b) ? answer(found) : undefined;
  }

  /** RFC 7592 §2.3: the client deletes its registration, and every token issued to it stops working. */
  async unregister(clientId: string): Promise<void> {
    await this.store.put(R.clientDeleted(clientId), true, REFRESH_SECONDS);
    this.verified.clear();
    await this.store.delete?.(R.client(clientId));
  }

  /**
   * Revocation (RFC 7009 §2.1, §2.2). A refresh token ends its whole sign-in (every token of its
   * family, as recommended there); an access token ends itself. A token of another client is
   * refused; an unknown or already revoked token is no error: the answer is the same either way.
   */
  async revoke(token: string, clientId: string | undefined, issuer: string): Promise<void> {
    const hash = sha(token);
    const access = await this.store.get<TokenRecord>(R.access(hash));
    const refresh = access ? undefined : await this.store.get<TokenRecord>(R.refresh(hash));
    const record = access ?? refresh;
    // Another issuer's token is unknown here (RFC 7009 §2.2: answered as if revoked, and left alone).
    if (!record || !sameIssuer(record, issuer)) return;
    if (record.client_id !== clientId) throw new OAuthError('invalid_client', 'The token was issued to another client; send that client\'s "client_id".', 401);
    // Refused at once in this process; elsewhere within KEY_CACHE_SECONDS (verify).
    this.verified.clear();
    if (access) {
      await this.store.delete?.(R.access(hash));
      // A store without delete: the family goes instead, so the token is refused all the same.
      if (!this.store.delete && access.family) await this.store.put(R.revoked(access.family), true, REFRESH_SECONDS);
      return;
    }
    if (record.family) await this.store.put(R.revoked(record.family), true, REFRESH_SECONDS);
    await this.store.delete?.(R.refresh(hash));
  }

  /**
   * A client by id: a registered one, or a Client ID Metadata Document — the client id is an https
   * URL whose JSON names the same client_id and its redirect URIs — fetched through the SSRF guard
   * (shared/vendor/fetch-url.ts; ALLOW_HTTP_HOSTS lifts it for local hosts as for file URLs).
   * A registered client is one of `issuer` only (MCP 2026-07-28, authorization server binding);
   * a metadata document is portable across issuers.
   */
  async client(clientId: string, issuer: string): Promise<ClientRecord> {
    if (!/^https?:\/\//.test(clientId)) {
      const found = await this.store.get<ClientRecord>(R.client(clientId));
      if (!found) throw new OAuthError('invalid_client', `Unknown client "${clientId.slice(0, 80)}": register it (POST /oauth/register) or use a client metadata document URL.`, 401);
      if (!sameIssuer(found, issuer)) throw new OAuthError('invalid_client', `Client "${clientId.slice(0, 80)}" was registered with the authorization server ${found.issuer}, not ${issuer}: register again here (POST ${issuer}/oauth/register).`, 401);
      return answer(found);
    }
    const now = this.id.now();
    const kept = this.documents.get(clientId);
    if (kept && kept.until > now) return kept.client;
    this.documents.delete(clientId);
    const allowHttpHosts = this.id.allowHttpHosts;
    let doc;
    try {
      if (new URL(clientId).pathname === '/') throw unusableDocument(clientId, 'its URL must name the document with a path, e.g. https://host.example/oauth/client.json');
      doc = await fetchUrl(clientId, { parameter: 'client_id', allowHttpHosts, maxBytes: MAX_CLIENT_METADATA_BYTES, timeoutMs: 5000, maxRedirects: 0 });
    } catch (err) {
      if (err instanceof OAuthError) throw err;
      // Why, in words of our own: never the address the host resolved to, nor what it answered.
      throw unusableDocument(clientId, fetchFailure(err));
    }
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse(doc.bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw unusableDocument(clientId, 'it is not JSON');
    }
    if (!meta || typeof meta !== 'object' || meta.client_id !== clientId) throw unusableDocument(clientId, 'its "client_id" is not its own URL');
    // The fields MCP requires of a document (2026-07-28, client registration): client_id, client_name, redirect_uris.
    if (typeof meta.client_name !== 'string' || !meta.client_name.trim()) throw unusableDocument(clientId, 'it names no "client_name"');
    let rules: ReturnType<typeof redirectRules>;
    try {
      rules = redirectRules(meta);
    } catch (err) {
      throw unusableDocument(clientId, err instanceof OAuthError ? err.message.replace(/\.$/, '') : 'its "redirect_uris" cannot be used');
    }
    const client: ClientRecord = { client_id: clientId, ...rules, client_name: meta.client_name.slice(0, MAX_NAME_CHARS) };
    const until = documentCacheUntil(doc.caching, now);
    if (until > now) {
      if (this.documents.size >= MAX_DOCUMENTS_KEPT) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(clientId, { client, until });
    }
    return client;
  }

  /** Step one of the consent page: the user signed in, with a service key or by connecting an account, for this request. */
  async startConsent(request: AuthorizationRequest, who: { key: KeyRecord } | { tenant: string; connection: string }): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    const record: ConsentRecord = 'key' in who ? { request, tenant: who.key.tenant, key_id: who.key.id } : { request, tenant: who.tenant, connection: who.connection };
    await this.store.put(R.consent(sha(id)), record, CONSENT_SECONDS);
    return id;
  }

  async consent(id: string): Promise<ConsentRecord | undefined> {
    return this.store.get<ConsentRecord>(R.consent(sha(id)));
  }

  /** Step two: the user's choice becomes a single-use code; the consent ends. */
  async issueCode(consentId: string, grant: Grant, request: AuthorizationRequest): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    const record: CodeRecord = { ...grant, redirect_uri: request.redirect_uri, challenge: request.challenge };
    await this.store.put(R.code(sha(code)), record, CODE_SECONDS);
    await this.store.delete?.(R.consent(sha(consentId)));
    return code;
  }

  /** grant_type=authorization_code: the code (once), its client, redirect URI, PKCE verifier and resource. */
  async exchangeCode(form: Record<string, string>, issuer: string): Promise<TokenAnswer> {
    const { code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri, resource } = form;
    if (!code || !verifier || !clientId) throw new OAuthError('invalid_request', 'Send "code", "code_verifier" and "client_id".');
    const hash = sha(code);
    // Single use: of two exchanges of one code, exactly one claims it, naming the sign-in (family)
    // its tokens will belong to. The claim outlives the tokens' lifetime: a code presented again,
    // even late, means it leaked, and everything issued from it is revoked (RFC 6749 §4.1.2).
    const family = randomBytes(12).toString('hex');
    const claimed = await this.store.putIfAbsent?.(R.codeUsed(hash), { family }, REFRESH_SECONDS);
    const record = await this.store.get<CodeRecord>(R.code(hash));
    if (!claimed) {
      const spent = await this.store.get<{ family?: string }>(R.codeUsed(hash));
      if (spent?.family) await this.store.put(R.revoked(spent.family), true, REFRESH_SECONDS);
      this.verified.clear();
    }
    if (!claimed || !record) throw new OAuthError('invalid_grant', 'The authorization code is unknown, expired or already used; authorize again.');
    await this.store.delete?.(R.code(hash));
    if (record.client_id !== clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
    if (!sameIssuer(record, issuer)) throw new OAuthError('invalid_grant', `The authorization code was issued by ${record.issuer}; redeem it there.`);
    // RFC 6749 §4.1.3: required when the authorization request carried it, which it always does here.
    if (redirectUri === undefined) throw new OAuthError('invalid_request', 'Send "redirect_uri": the one of the authorization request.');
    if (redirectUri !== record.redirect_uri) throw new OAuthError('invalid_grant', '"redirect_uri" differs from the one of the authorization request.');
    // The client's registration changed since (RFC 7592 update): a code sent to a URI it no longer names is not its.
    const registered = /^https?:\/\//.test(clientId) ? undefined : await this.store.get<ClientRecord>(R.client(clientId));
    if (registered && !redirectRegistered(registered.redirect_uris, record.redirect_uri)) throw new OAuthError('invalid_grant', 'The authorization code was sent to a redirect URI the client no longer registers; authorize again.');
    const audience = audienceOf(record, resource);
    const expected = Buffer.from(record.challenge);
    const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new OAuthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge (S256).');
    const { redirect_uri: _r, challenge: _c, ...grant } = record;
    await this.signIns.started({ ...grant, family });
    return this.issueTokens({ ...grant, family }, audience);
  }

  /** grant_type=refresh_token: the old refresh token is spent, a new pair issued (rotation). */
  async refresh(form: Record<string, string>, issuer: string): Promise<TokenAnswer> {
    const { refresh_token: token, client_id: clientId, resource } = form;
    if (!token || !clientId) throw new OAuthError('invalid_request', 'Send "refresh_token" and "client_id".');
    const hash = sha(token);
    const record = await this.store.get<TokenRecord>(R.refresh(hash));
    // Another deployment's token is not spent here: its holder still refreshes it where it was issued.
    if (record && !sameIssuer(record, issuer)) throw new OAuthError('invalid_grant', `The refresh token was issued by ${record.issuer}; refresh it there.`);
    // RFC 6749 §6: a `scope` may narrow the grant, never widen it. Checked before the token is spent, so a refused request loses nothing.
    const asked = parseScope(form.scope);
    // RFC 8707: a refresh may ask for any endpoint the sign-in covers; refused before the token is spent.
    const audience = record && record.client_id === clientId ? audienceOf(record, resource) : resource;
    const policy = record && asked.length && record.client_id === clientId ? narrowedTo(this.id.scopes, record.policy, asked, platformOfResource(audience ?? record.resource)) : record?.policy;
    // Single use: of two refreshes with one token, exactly one claims it.
    const claimed = record && (await this.store.putIfAbsent?.(R.refreshUsed(hash), { family: record.family }, REFRESH_SECONDS));
    if (!claimed) {
      // A spent refresh token presented again: it leaked, or a copy is in other hands. Its whole
      // family is revoked (OAuth 2.1 refresh token rotation); the legitimate holder signs in again.
      const spent = await this.store.get<{ family?: string }>(R.refreshUsed(hash));
      if (spent?.family) await this.store.put(R.revoked(spent.family), true, REFRESH_SECONDS);
      this.verified.clear();
    }
    if (!claimed || !record || record.expires_at <= this.id.now() || (await this.revoked(record))) throw new OAuthError('invalid_grant', 'The refresh token is unknown, expired or already used; sign in again.');
    // The service key the user signed in with was revoked (or expired) since: the sign-in ends with it.
    if (record.key_id !== undefined && (await this.id.keys.get(record.key_id))?.status !== 'active') {
      await this.store.delete?.(R.refresh(hash));
      throw new OAuthError('invalid_grant', 'The service key this sign-in was granted with is no longer active; sign in again.');
    }
    await this.store.delete?.(R.refresh(hash));
    if (record.client_id !== clientId) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client.');
    const { expires_at: _e, ...grant } = record;
    if (grant.family !== undefined) await this.signIns.refreshed(grant.family);
    return this.issueTokens({ ...grant, policy: policy ?? grant.policy }, audience ?? grant.resource);
  }

  /**
   * An access token's record and whether its sign-in is revoked, read at most once per
   * KEY_CACHE_SECONDS per token (as service keys are): a revocation elsewhere is seen within that
   * bound, one in this process at once (the cache is dropped).
   */
  private async lookup(hash: string): Promise<{ record: TokenRecord | undefined; revoked: boolean }> {
    const now = this.id.now();
    let hit = this.verified.get(hash);
    if (!hit || now - hit.at >= KEY_CACHE_SECONDS * 1000) {
      const record = await this.store.get<TokenRecord>(R.access(hash));
      hit = { record, revoked: record !== undefined && (await this.revoked(record)), at: now };
      this.verified.set(hash, hit);
      if (this.verified.size > 10_000) this.verified.delete(this.verified.keys().next().value!);
    }
    return hit;
  }

  /** The admin API ends a sign-in: every token of its family is refused from now on. */
  async revokeSignIn(family: string): Promise<void> {
    await this.store.put(R.revoked(family), true, REFRESH_SECONDS);
    // Refused at once in this process, as every revocation here is (lookup's cache).
    this.verified.clear();
  }

  /** Whether a sign-in has ended: revoked, or its client deleted its registration. */
  signInEnded(family: string, clientId: string): Promise<boolean> {
    return this.revoked({ family, client_id: clientId } as Grant);
  }

  /** A registered client's record as its registration answers it (the admin API's listing); undefined when gone. */
  async registeredClient(clientId: string): Promise<ClientAnswer | undefined> {
    const found = await this.store.get<ClientRecord>(R.client(clientId));
    return found && answer(found);
  }

  /** Its sign-in was revoked (a refresh token revoked or spent twice), or its client deleted its registration. */
  private async revoked(grant: Grant): Promise<boolean> {
    if (grant.family !== undefined && (await this.store.get<boolean>(R.revoked(grant.family))) === true) return true;
    return (await this.store.get<boolean>(R.clientDeleted(grant.client_id))) === true;
  }

  /** A token pair for one endpoint of the grant (`audience`, checked by audienceOf): the pair's `resource` is it, the rest of the grant goes along. */
  private async issueTokens(grant: Grant, audience: string): Promise<TokenAnswer> {
    const now = this.id.now();
    const access = secret(ACCESS_PREFIX);
    const refresh = secret(REFRESH_PREFIX);
    const pair = { ...grant, resource: audience };
    await this.store.put(R.access(sha(access)), { ...pair, expires_at: now + ACCESS_SECONDS * 1000 } satisfies TokenRecord, ACCESS_SECONDS);
    await this.store.put(R.refresh(sha(refresh)), { ...pair, expires_at: now + REFRESH_SECONDS * 1000 } satisfies TokenRecord, REFRESH_SECONDS);
    return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_SECONDS, refresh_token: refresh, scope: grantedScope(this.id.scopes, grant.policy, platformOfResource(audience)) };
  }

  /**
   * The grant behind an access token presented at `resource`, or UNAUTHORIZED (invalid_token):
   * unknown, expired, or issued for another resource (RFC 8707 audience). Without a resource (a
   * REST call) the token is refused too: it was granted to one MCP endpoint only.
   */
  async verify(token: string, resource: string | undefined): Promise<Grant> {
    const { record, revoked } = await this.lookup(sha(token));
    const invalid = (why: string) => new ToolError('UNAUTHORIZED', `${why} Sign in again from your MCP host.`, { header: 'Authorization', error: 'invalid_token' });
    if (!record) throw invalid('Unknown access token.');
    if (record.expires_at <= this.id.now()) throw invalid('The access token has expired; refresh it.');
    if (revoked) throw invalid('This sign-in was revoked (signed out, a spent refresh token presented again, or its client deleted).');
    if (record.resource !== resource) throw invalid(`The access token was granted for ${record.resource}, not for ${resource ?? 'this endpoint'}.`);
    const { expires_at: _e, ...grant } = record;
    // At a platform's endpoint the token acts through the sign-in's account on that platform.
    const platform = platformOfResource(resource);
    const account = platform !== undefined ? grant.accounts?.[platform] : undefined;
    return account !== undefined ? { ...grant, connection: account } : grant;
  }
}

/**
 * The metadata a public client may register (RFC 7591 §2), checked alike on registration and on
 * update (RFC 7592 §2.2): redirect URIs, an optional name; the auth method, grant and response
 * types, when sent, only those this server supports (RFC 7591 §3.2.2: invalid_client_metadata otherwise).
 */
function clientMetadata(meta: Record<string, unknown>): Pick<ClientRecord, 'redirect_uris' | 'client_name' | 'application_type'> {
  const rules = redirectRules(meta);
  const method = meta.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new OAuthError('invalid_client_metadata', 'Only public clients are registered here: "token_endpoint_auth_method" must be "none" (the code is bound by PKCE).');
  }
  for (const [field, supported] of [['grant_types', GRANT_TYPES], ['response_types', RESPONSE_TYPES]] as const) {
    const value = meta[field];
    if (value !== undefined && (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && (supported as readonly string[]).includes(v)))) {
      throw new OAuthError('invalid_client_metadata', `"${field}" must be a list of ${supported.join(', ')} (what this server supports), or left out.`);
    }
  }
  if (meta.client_name !== undefined && (typeof meta.client_name !== 'string' || meta.client_name.length > MAX_NAME_CHARS)) throw new OAuthError('invalid_client_metadata', `"client_name" must be a string of at most ${MAX_NAME_CHARS} characters, or left out.`);
  return { ...rules, ...(typeof meta.client_name === 'string' ? { client_name: meta.client_name } : {}) };
}

/**
 * The endpoint a token request asks for (RFC 8707 `resource`): one the grant covers, or without
 * the parameter the record's own; invalid_target for any other.
 */
function audienceOf(record: Grant, resource: string | undefined): string {
  if (resource === undefined || resource === record.resource || record.resources?.includes(resource)) return resource ?? record.resource;
  const covered = record.resources ?? [record.resource];
  throw new OAuthError('invalid_target', `This sign-in was granted for ${covered.map((r) => `"${r}"`).join(', ')}, not "${resource}". Sign in at that endpoint to use it.`);
}

/**
 * The `scope` of a token (RFC 6749 §5.1) for `platform`'s endpoint, or the combined one (no
 * platform): a one-platform grant's toolsets as `?toolsets=` writes them; a grant over several
 * platforms at the combined endpoint, each qualified with its platform.
 */
function grantedScope(scopes: Scopes, policy: Policy, platform: string | undefined): string {
  if (platform !== undefined || policy.platforms.length === 1) return scopes.granted(platform ?? policy.platforms[0]!, policy.toolsets);
  return policy.platforms.flatMap((p) => scopes.granted(p, policy.toolsets).split(' ').filter(Boolean).map((t) => `${p}:${t}`)).join(' ');
}

/**
 * A grant's policy limited to the toolsets of a refresh request's `scope`; invalid_scope when it
 * names one the grant does not share. A grant over several platforms compares qualified names, a
 * bare one meaning the token's platform (at the combined endpoint, each platform that has it).
 */
function narrowedTo(scopes: Scopes, policy: Policy, scope: string[], audience: string | undefined): Policy {
  if (policy.platforms.length === 1) {
    const platform = policy.platforms[0]!;
    const granted = scopes.granted(platform, policy.toolsets).split(' ');
    // A toolset qualified with another platform is wider too: it stays in as it is, and is not granted.
    const asked = [...new Set(scope.map((s) => (platformOfScope(s) === platform ? toolsetOfScope(s) : s)))];
    const wider = asked.filter((t) => !granted.includes(t));
    if (wider.length) throw new OAuthError('invalid_scope', `A refresh may narrow the grant, not widen it: it shares ${granted.join(' ')}, not ${wider.join(' ')}. Authorize again to share more.`);
    return { ...policy, toolsets: asked };
  }
  const granted = grantedScope(scopes, policy, undefined).split(' ');
  const asked = [...new Set(scope.flatMap((s) => (platformOfScope(s) !== undefined ? [s] : audience !== undefined ? [`${audience}:${s}`] : policy.platforms.filter((p) => granted.includes(`${p}:${s}`)).map((p) => `${p}:${s}`).concat(granted.some((g) => toolsetOfScope(g) === s) ? [] : [s]))))];
  const wider = asked.filter((t) => !granted.includes(t));
  if (wider.length) throw new OAuthError('invalid_scope', `A refresh may narrow the grant, not widen it: it shares ${granted.join(' ')}, not ${wider.join(' ')}. Authorize again to share more.`);
  return { ...policy, toolsets: asked };
}

const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
const RESPONSE_TYPES = ['code'] as const;

function answer({ registration_hash: _h, issuer: _i, ...client }: ClientRecord): ClientAnswer {
  return { ...client, token_endpoint_auth_method: 'none', grant_types: [...GRANT_TYPES], response_types: [...RESPONSE_TYPES] };
}

/** A record made at `issuer`, or before issuers were kept (its tokens still end within REFRESH_SECONDS). */
const sameIssuer = (record: { issuer?: string }, issuer: string) => record.issuer === undefined || record.issuer === issuer;

export type ApplicationType = 'web' | 'native';
const APPLICATION_TYPES: readonly ApplicationType[] = ['web', 'native'];

/**
 * A client's `application_type` and the redirect URIs it may use (MCP 2026-07-28, client
 * registration; OpenID Connect Dynamic Client Registration, section 2): a web client only https URLs on a host that is
 * not loopback; a native client also loopback URLs (RFC 8252 §7.3) and private-use schemes named
 * after a domain (RFC 8252 §7.1: `com.example.app:/callback`) — and claimed https URLs (RFC 8252 §7.2), as
 * VS Code registers `https://vscode.dev/redirect` beside its loopback one. Never a fragment
 * (RFC 6749 §3.1.2). Left out, the type is OIDC's default, web — unless a URI is one only a native
 * client may use: hosts written before the parameter was required send none, and are native apps.
 */
function redirectRules(meta: Record<string, unknown>): { redirect_uris: string[]; application_type: ApplicationType } {
  const type = meta.application_type;
  if (type !== undefined && !APPLICATION_TYPES.includes(type as ApplicationType)) {
    throw new OAuthError('invalid_client_metadata', '"application_type" must be "web" (a remote web host) or "native" (a desktop, mobile or command-line host, or one on localhost), or left out.');
  }
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((u) => typeof u === 'string' && u.length <= MAX_URI_CHARS && redirectKind(u) !== undefined)) {
    throw new OAuthError('invalid_redirect_uri', `"redirect_uris" must be 1-${MAX_REDIRECT_URIS} absolute URLs of at most ${MAX_URI_CHARS} characters, without a fragment or a user name: https on a public host, or (application_type "native") http on 127.0.0.1/[::1]/localhost or a private-use scheme such as com.example.app:/callback.`);
  }
  const nativeOnly = (uris as string[]).filter((u) => redirectKind(u) === 'native');
  const applicationType: ApplicationType = (type as ApplicationType | undefined) ?? (nativeOnly.length ? 'native' : 'web');
  if (applicationType === 'web' && nativeOnly.length) {
    throw new OAuthError('invalid_redirect_uri', `A web client may only use https redirect URIs on a host that is not loopback, not ${nativeOnly[0]!.slice(0, 100)}: register it with "application_type": "native" if it is a desktop, mobile or command-line host.`);
  }
  return { redirect_uris: uris as string[], application_type: applicationType };
}

/** Which clients may use a redirect URI: 'web' any, 'native' native ones only, undefined none. */
function redirectKind(raw: string): ApplicationType | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  // No fragment, not even an empty one (RFC 6749 §3.1.2), and no userinfo (a URL that reads as one host and goes to another).
  if (url.hash || raw.includes('#') || url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) return undefined;
  if (url.protocol === 'https:' || url.protocol === 'http:') return LOOPBACK.includes(url.hostname) ? 'native' : url.protocol === 'https:' ? 'web' : undefined;
  // RFC 8252 §7.1: a reversed domain name, so never javascript:, data:, file: or another well-known scheme.
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) ? 'native' : undefined;
}

const LOOPBACK = ['127.0.0.1', '[::1]', 'localhost'];

/**
 * Whether `given` is one of the client's redirect URIs: exactly, or — an http loopback URI, a
 * native app's (RFC 8252 §7.3) — the same but for the port, which the app picks when it starts.
 */
export function redirectRegistered(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK.includes(url.hostname) || redirectKind(given) === undefined) return false;
  const portless = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((r) => {
    try {
      const reg = new URL(r);
      return reg.protocol === 'http:' && portless(reg) === portless(url);
    } catch {
      return false;
    }
  });
}

/** Client metadata documents kept at most (the oldest goes first), and for at most a day whatever their headers say. */
const MAX_DOCUMENTS_KEPT = 1000;
const MAX_DOCUMENT_SECONDS = 24 * 3600;

/**
 * Until when a fetched client metadata document may be used again without fetching it (RFC 9111
 * §4.2): Cache-Control max-age (less Age), else Expires; no-store or no-cache (or neither header) —
 * not kept. Capped at a day.
 */
export function documentCacheUntil(caching: { cacheControl?: string; expires?: string; age?: string } | undefined, now: number): number {
  const cc = (caching?.cacheControl ?? '').toLowerCase();
  if (/(^|[,\s])(no-store|no-cache)\b/.test(cc)) return 0;
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d+)/.exec(cc);
  let seconds: number;
  if (maxAge) seconds = Number(maxAge[1]) - (Number(caching?.age) || 0);
  else if (caching?.expires) seconds = (Date.parse(caching.expires) - now) / 1000;
  else return 0;
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return now + Math.min(seconds, MAX_DOCUMENT_SECONDS) * 1000;
}

/** A fetch failure of a client metadata document in words of our own: its kind, never an address or what the host answered. */
function fetchFailure(err: unknown): string {
  const details = err instanceof ToolError ? (err.details as { reason?: string; http_status?: number } | undefined) : undefined;
  switch (details?.reason) {
    case 'scheme':
      return 'it is not an https URL';
    case 'address':
    case 'dns':
      return 'its host does not resolve to a public address';
    case 'http_status':
      return `its host answered HTTP ${details.http_status ?? 'an error'}`;
    case 'redirects':
      return 'it redirects (a client metadata document is served at its own URL)';
    case 'too_large':
      return `it is larger than ${MAX_CLIENT_METADATA_BYTES} bytes`;
    case 'timeout':
      return 'its host did not answer in time';
    default:
      return 'it could not be fetched';
  }
}

const unusableDocument = (clientId: string, why: string) => new OAuthError('invalid_client', `The client metadata document at "${clientId.slice(0, 200)}" cannot be used: ${why}.`, 401);
