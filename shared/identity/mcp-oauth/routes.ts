import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ToolError } from '../../core/errors';
import { log } from '../../core/log';
import type { Runtime } from '../../core/runtime';
import type { Identity } from '../identity';
import { identityOf } from '../index';
import { isServiceKey } from '../keys';
import { parsePolicy, type Policy } from '../policy';
import { vendorName } from '../providers';
import { esc, page } from '../pages/layout';
import { stopPage } from '../pages/parts';
import { AUTHORIZE_PATH, consentBody, hostOf, keyRefusedBody, noAccountBody, signInBody, type Host, type KeyVendor, type OtherEndpoint } from './pages';
import { MAX_CLIENT_METADATA_BYTES, OAuthError, redirectRegistered, type AuthorizationRequest, type Grant } from './grants';
import { boundedBody } from '../../core/json-body';
import type { ConnectionRecord } from '../connections';
import { mcpResource, platformOfResource, RESOURCE_METADATA_PATH } from './resource';
import { parseScope, platformOfScope, toolsetOfScope, toolsetsOn, type Scopes } from './scopes';

const TOKEN_PATH = '/oauth/token';
const REGISTER_PATH = '/oauth/register';
const REVOKE_PATH = '/oauth/revoke';

/** The largest form the token, revocation and consent endpoints read: a few fields, the authorization request's among them. */
const OAUTH_FORM_BYTES = 32 * 1024;

/** Registrations one source address may make per window (OAUTH_REGISTER_RATE_LIMIT overrides: "<max>/<seconds>"). */
export const REGISTER_LIMIT = { max: 20, window_seconds: 600 };

/**
 * The address a request came from: API Gateway's own record of it (payload 2.0 or 1.0), else the
 * local server's socket. Never a header the sender writes (X-Forwarded-For), which any client can forge.
 */
export function sourceAddress(c: Context): string {
  const env = c.env as { requestContext?: { http?: { sourceIp?: string }; identity?: { sourceIp?: string } }; incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.requestContext?.http?.sourceIp ?? env?.requestContext?.identity?.sourceIp ?? env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * The MCP endpoints' sign-in: protected-resource metadata (RFC 9728) per endpoint, and the built-in
 * authorization server — metadata (RFC 8414), dynamic client registration (RFC 7591), the consent
 * page (authorization code with PKCE S256) and the token endpoint (code and refresh grants).
 */
export function mcpOAuthRoutes(app: Hono<any>, rt: Runtime): void {
  const noStore = { 'cache-control': 'no-store' };
  const oauthError = (c: Context, err: unknown) => {
    if (err instanceof OAuthError) return c.json({ error: err.code, error_description: err.message }, err.status as 400, noStore);
    throw err;
  };

  // --- Protected resource metadata: /.well-known/oauth-protected-resource[/v1/mcp[/platform]] ---
  const resourceMetadata = async (c: Context, platform?: string) => {
    const id = await identityOf(rt);
    if (platform !== undefined && !id.platforms.has(platform)) {
      return c.json({ error: 'not_found', error_description: `No MCP endpoint /v1/mcp/${platform}. Platforms: ${[...id.platforms.keys()].join(', ')}.` }, 404);
    }
    const base = id.baseOr(c.req.url);
    const external = id.config.externalAuth;
    return c.json({
      resource: mcpResource(base, platform),
      // The external identity provider when one is configured (MCP_AUTH_SERVER=external), else this service's own.
      authorization_servers: [external?.issuer ?? base],
      // The provider's scopes, or the toolsets this endpoint serves (scopes.ts): a host asks for them when a challenge names none.
      ...(external ? (external.scopes.length ? { scopes_supported: external.scopes } : {}) : { scopes_supported: id.scopes.supported(platform) }),
      bearer_methods_supported: ['header'],
      resource_name: `Tool Execution Service${platform ? ` (${platform})` : ''}`,
    });
  };
  app.get(RESOURCE_METADATA_PATH, (c) => resourceMetadata(c));
  app.get(`${RESOURCE_METADATA_PATH}/v1/mcp`, (c) => resourceMetadata(c));
  app.get(`${RESOURCE_METADATA_PATH}/v1/mcp/:platform`, (c) => resourceMetadata(c, c.req.param('platform')));

  // With an external identity provider the built-in server is off, not half on: its endpoints say where to sign in.
  const builtinOff = async (c: Context, next: () => Promise<void>) => {
    const external = (await identityOf(rt)).config.externalAuth;
    if (!external) return next();
    return c.json({ error: 'not_found', error_description: `This deployment signs in through ${external.issuer} (MCP_AUTH_SERVER=external); its built-in authorization server is off.` }, 404, noStore);
  };
  for (const path of ['/.well-known/oauth-authorization-server', AUTHORIZE_PATH, TOKEN_PATH, REGISTER_PATH, `${REGISTER_PATH}/*`, REVOKE_PATH]) app.use(path, builtinOff);

  // Every body bounded before it is read (shared/core/json-body.ts), refused with the error its spec names.
  const tooLarge = (code: 'invalid_client_metadata' | 'invalid_request', max: number) => (c: Context) => c.json({ error: code, error_description: `The request body is larger than ${max} bytes.` }, 413, noStore);
  for (const path of [REGISTER_PATH, `${REGISTER_PATH}/*`]) app.use(path, boundedBody(MAX_CLIENT_METADATA_BYTES, tooLarge('invalid_client_metadata', MAX_CLIENT_METADATA_BYTES)));
  for (const path of [TOKEN_PATH, REVOKE_PATH]) app.use(path, boundedBody(OAUTH_FORM_BYTES, tooLarge('invalid_request', OAUTH_FORM_BYTES)));
  app.use(AUTHORIZE_PATH, boundedBody(OAUTH_FORM_BYTES, (c) => page(c, 413, 'Cannot sign in', `<p id="refused">The form is larger than ${OAUTH_FORM_BYTES} bytes; start again from your MCP host.</p>`)));

  // --- Authorization server metadata (RFC 8414) ---
  app.get('/.well-known/oauth-authorization-server', async (c) => {
    const id = await identityOf(rt);
    const base = id.baseOr(c.req.url);
    return c.json({
      issuer: base,
      authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
      token_endpoint: `${base}${TOKEN_PATH}`,
      registration_endpoint: `${base}${REGISTER_PATH}`,
      revocation_endpoint: `${base}${REVOKE_PATH}`,
      revocation_endpoint_auth_methods_supported: ['none'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      // Every scope it understands: the combined endpoint's list, which holds each platform's (scopes.ts).
      scopes_supported: id.scopes.supported(),
      token_endpoint_auth_methods_supported: ['none'],
      // The preferred registration (MCP 2026-07-28): the client id is the URL of its metadata document; registration_endpoint stays for older hosts.
      client_id_metadata_document_supported: true,
      // RFC 9207: every authorization response, error or not, names this issuer, so a host detects a mix-up.
      authorization_response_iss_parameter_supported: true,
    });
  });

  // --- Dynamic client registration (RFC 7591) ---
  app.post(REGISTER_PATH, async (c) => {
    try {
      // Per source address: registrations are kept for weeks, so a flood of them is refused early.
      const limit = (await identityOf(rt)).config.registerLimit ?? REGISTER_LIMIT;
      const counted = await rt.store.increment(`rl#oauth-register#${sourceAddress(c)}`, limit.window_seconds, limit.max);
      if (!counted.allowed) {
        return c.json({ error: 'temporarily_unavailable', error_description: `At most ${limit.max} registrations per ${limit.window_seconds} s from one address; retry after ${counted.resetSeconds} s.` }, 429, { ...noStore, 'retry-after': String(counted.resetSeconds) });
      }
      const body = (await c.req.json().catch(() => undefined)) as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata with "redirect_uris".');
      const id = await identityOf(rt);
      const base = id.baseOr(c.req.url);
      const client = await id.grants.register(body as Record<string, unknown>, (clientId) => `${base}${REGISTER_PATH}/${clientId}`, base);
      log('info', 'mcp client registered', { client_id: client.client_id });
      return c.json(client, 201, noStore);
    } catch (err) {
      return oauthError(c, err);
    }
  });

  // --- Client configuration (RFC 7592): read, update and delete with the registration access token ---
  const registration = async (c: Context) => {
    const id = await identityOf(rt);
    const grants = id.grants;
    const clientId = c.req.param('client_id') ?? '';
    const bearer = /^Bearer (\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const base = id.baseOr(c.req.url);
    const client = await grants.registered(clientId, bearer, base);
    // RFC 7592 §2: an unknown client or a wrong token is 401, and says nothing about which.
    if (!client) return c.json({ error: 'invalid_token', error_description: 'Send the registration_access_token of this client as "Authorization: Bearer …".' }, 401, { ...noStore, 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    if (c.req.method === 'GET') return c.json(client, 200, noStore);
    if (c.req.method === 'PUT') {
      try {
        const body = (await c.req.json().catch(() => undefined)) as unknown;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of the client\'s full metadata, with "client_id" and "redirect_uris" (RFC 7592 §2.2).');
        const updated = await grants.update(clientId, body as Record<string, unknown>, (cid) => `${base}${REGISTER_PATH}/${cid}`, base);
        log('info', 'mcp client updated', { client_id: clientId });
        return c.json(updated, 200, noStore);
      } catch (err) {
        return oauthError(c, err);
      }
    }
    await grants.unregister(clientId);
    log('info', 'mcp client unregistered', { client_id: clientId });
    return c.body(null, 204, noStore);
  };
  app.get(`${REGISTER_PATH}/:client_id`, registration);
  app.put(`${REGISTER_PATH}/:client_id`, registration);
  app.delete(`${REGISTER_PATH}/:client_id`, registration);

  // --- Token revocation (RFC 7009): a host signing out ends its tokens ---
  app.post(REVOKE_PATH, async (c) => {
    try {
      const form = Object.fromEntries(Object.entries(await c.req.parseBody().catch(() => ({}))).filter((e): e is [string, string] => typeof e[1] === 'string'));
      if (!form.token) throw new OAuthError('invalid_request', 'Send the "token" to revoke (and your "client_id"), form-encoded.');
      const id = await identityOf(rt);
      await id.grants.revoke(form.token, form.client_id, id.baseOr(c.req.url));
      return c.body(null, 200, noStore);
    } catch (err) {
      return oauthError(c, err);
    }
  });

  // --- Token endpoint ---
  app.post(TOKEN_PATH, async (c) => {
    try {
      const form = Object.fromEntries(Object.entries(await c.req.parseBody().catch(() => ({}))).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const id = await identityOf(rt);
      const issuer = id.baseOr(c.req.url);
      if (form.grant_type === 'authorization_code') return c.json(await id.grants.exchangeCode(form, issuer), 200, noStore);
      if (form.grant_type === 'refresh_token') return c.json(await id.grants.refresh(form, issuer), 200, noStore);
      throw new OAuthError('unsupported_grant_type', '"grant_type" must be "authorization_code" or "refresh_token".');
    } catch (err) {
      return oauthError(c, err);
    }
  });

  // --- The consent page: sign in (a service key, or connecting a vendor account), then pick a connection and toolsets ---
  app.get(AUTHORIZE_PATH, async (c) => {
    const id = await identityOf(rt);
    // Back from connecting an account (shared/identity/routes.ts follows the link's `then`): step two.
    const resumed = c.req.query('consent');
    if (resumed !== undefined) return connectedConsent(c, id, resumed);
    const read = await readRequest(id, c.req.query(), c.req.url);
    if ('error' in read) return read.error(c);
    // The sign-in forms carry a token this browser also holds as a cookie (double submit): a form another site posts has none.
    const csrf = randomBytes(24).toString('base64url');
    setCookie(c, CSRF_COOKIE, csrf, { path: AUTHORIZE_PATH, httpOnly: true, sameSite: 'Lax', secure: id.baseOr(c.req.url).startsWith('https:'), maxAge: 3600 });
    const platform = platformOfResource(read.request.resource);
    const query = { ...Object.fromEntries(Object.entries(c.req.query()).filter(([k]) => k !== 'csrf')), csrf };
    return page(c, 200, 'Sign in', signInBody(id.platforms, read.host, read.request.resource, platform, connectable(id, platform), query, keyConnectable(id, platform)));
  });

  app.post(AUTHORIZE_PATH, async (c) => {
    const id = await identityOf(rt);
    const form = await formOf(c);
    const forged = crossSite(c, id.baseOr(c.req.url));
    if (forged) return stopPage(c, 403, 'Cannot sign in', forged, 'Start again from your MCP host.');
    if (form.consent) return decide(c, id, form);
    if (!sameToken(getCookie(c, CSRF_COOKIE), form.csrf)) return page(c, 403, 'Cannot sign in', '<p id="refused">This form was not sent from this sign-in page (its token is missing or wrong). Start again from your MCP host.</p>');
    const read = await readRequest(id, form, c.req.url);
    if ('error' in read) return read.error(c);
    const platform = platformOfResource(read.request.resource);
    if (form.cancel !== undefined) return backToHost(c, read.request, id.baseOr(c.req.url), 'access_denied', form.cancel === 'no_account' ? `The user has no account this service can use for ${read.request.resource}.` : 'The user went back without signing in.');
    if (form.connect !== undefined) return connectToSignIn(c, id, read, platform, form.connect);
    if (form.vendor_key !== undefined) return keyToSignIn(c, id, read, platform, form);
    const presented = (form.service_key ?? '').trim();
    let key;
    try {
      if (!isServiceKey(presented)) throw new ToolError('UNAUTHORIZED', 'Paste a service key (tes_…).');
      key = await id.keys.authenticate(presented);
    } catch (err) {
      return stopPage(c, 401, 'Sign in', err instanceof ToolError ? err.message : 'The key was refused.', 'Go back and paste a valid service key, or sign in another way.');
    }
    const usable = await usableAccounts(id, key.tenant, key.policy);
    const connections = usable.filter((r) => !platform || r.platform === platform);
    if (connections.length === 0) {
      const { service_key: _key, ...query } = form;
      return page(c, 400, 'No account to use', noAccountBody(id.platforms, read.host, key.tenant, platform, connectable(id, platform), query, keyConnectable(id, platform)));
    }
    return consentForm(c, id, read.host, read.request, await id.grants.startConsent(read.request, { key }), connections, key.policy, otherEndpoints(id, c.req.url, read.request.resource, usable));
  });

  /** The OAuth platforms a user may sign in with by connecting an account here (MCP_CONNECT_SIGN_IN), for this endpoint. */
  function connectable(id: Identity, endpoint: string | undefined): string[] {
    const signIn = id.config.connectSignIn;
    if (!signIn) return [];
    return signIn.policy.platforms.filter((p) => (endpoint === undefined || p === endpoint) && id.platforms.get(p)?.auth.oauth && id.config.oauthClients[p]);
  }

  /**
   * The platforms whose account a person may connect on the sign-in page by pasting its API key,
   * for this endpoint: those of MCP_CONNECT_SIGN_IN's policy that connect with a key the
   * descriptor can check (auth.checkKey), with what the vendor calls the key and where it shows it.
   */
  function keyConnectable(id: Identity, endpoint: string | undefined): KeyVendor[] {
    const signIn = id.config.connectSignIn;
    if (!signIn) return [];
    return signIn.policy.platforms
      .filter((p) => endpoint === undefined || p === endpoint)
      .map((p) => ({ p, auth: id.platforms.get(p)?.auth }))
      .filter(({ auth }) => auth?.kinds.includes('api_key') && auth.checkKey)
      .map(({ p, auth }) => ({ platform: p, label: auth!.keyLabel ?? `${vendorName(id.platforms, p)} API key`, ...(auth!.keyWhere ? { where: auth!.keyWhere } : {}) }));
  }

  /**
   * Sign-in by pasting a vendor API key: checked with the vendor first (a wrong key keeps nothing
   * and says so on the page), then kept sealed as a connection in MCP_CONNECT_SIGN_IN's tenant, as
   * a connect link would, and on to the consent page bound to it. The key is never logged, put in
   * a page or a URL; attempts per source address are limited, so the page is no way to try keys.
   */
  async function keyToSignIn(c: Context, id: Identity, read: { request: AuthorizationRequest; host: Host }, endpoint: string | undefined, form: Record<string, string>): Promise<Response> {
    const signIn = id.config.connectSignIn;
    const platform = form.key_platform ?? '';
    const offered = keyConnectable(id, endpoint).find((k) => k.platform === platform);
    if (!signIn || !offered) return stopPage(c, 400, 'Cannot sign in', `Signing in with a ${vendorName(id.platforms, platform)} API key is not offered for this endpoint.`, 'Go back and sign in another way.');
    const { vendor_key: _key, key_platform: _p, ...query } = form;
    const vendor = vendorName(id.platforms, platform);
    const again = (status: number, why: string) => page(c, status, 'Key not accepted', keyRefusedBody(id.platforms, read.host, why, offered, query));
    const apiKey = (form.vendor_key ?? '').trim();
    if (!apiKey || apiKey.length > 4096 || /\s/.test(apiKey)) return again(400, `Paste your ${vendor} API key: one token, no spaces.`);
    const limit = KEY_SIGN_IN_LIMIT;
    const counted = await rt.store.increment(`rl#mcp-key-sign-in#${sourceAddress(c)}`, limit.window_seconds, limit.max);
    if (!counted.allowed) return again(429, `Too many keys tried from here: at most ${limit.max} per ${limit.window_seconds / 60} minutes. Try again in ${Math.ceil(counted.resetSeconds / 60)} minutes.`);
    const checked = await id.checkKey(platform, apiKey);
    if (!checked.ok) {
      return checked.refused
        ? again(401, `${vendor} did not accept this key. Check that you copied the whole key, and that it is still active at ${vendor}; then paste it again.`)
        : again(503, `${vendor} could not be reached to check the key. Try again in a moment.`);
    }
    const record = await id.connections.create(signIn.tenant, platform, `MCP sign-in: ${read.host.name}`.slice(0, 200), 'api_key');
    const connected = await id.connections.saveCredential(record, { kind: 'api_key', api_key: apiKey }, checked.account ? { account: checked.account } : {});
    log('info', 'mcp sign-in connected an account with its key', { tenant: signIn.tenant, connection_id: record.id, platform });
    const consent = await id.grants.startConsent(read.request, { tenant: signIn.tenant, connection: record.id });
    return consentForm(c, id, read.host, read.request, consent, [connected], signIn.policy, otherEndpoints(id, c.req.url, read.request.resource, [connected]));
  }

  /**
   * Sign-in by connecting a vendor account: a pending connection in the configured tenant, and
   * its connect link, whose flow (the vendor's sign-in, then the callback) ends back here on
   * the consent page, with the grant bound to that connection.
   */
  async function connectToSignIn(c: Context, id: Identity, read: { request: AuthorizationRequest; host: Host }, endpoint: string | undefined, platform: string): Promise<Response> {
    const signIn = id.config.connectSignIn;
    if (!signIn || !connectable(id, endpoint).includes(platform)) return stopPage(c, 400, 'Cannot sign in', `Signing in with a ${vendorName(id.platforms, platform)} account is not offered for this endpoint.`, 'Go back and use a service key.');
    const record = await id.connections.create(signIn.tenant, platform, `MCP sign-in: ${read.host.name}`.slice(0, 200), 'oauth');
    const consent = await id.grants.startConsent(read.request, { tenant: signIn.tenant, connection: record.id });
    const { connect_url } = await id.link(record, `${AUTHORIZE_PATH}?consent=${encodeURIComponent(consent)}`);
    log('info', 'mcp sign-in connecting an account', { tenant: signIn.tenant, connection_id: record.id, platform });
    return c.redirect(`${connect_url}/authorize`, 302);
  }

  /** Step two after connecting an account: the consent form for that one connection. */
  async function connectedConsent(c: Context, id: Identity, consentId: string): Promise<Response> {
    const consent = await id.grants.consent(consentId);
    const signIn = id.config.connectSignIn;
    const connection = consent?.connection && (await id.connections.get(consent.tenant, consent.connection));
    if (!consent || !signIn || !connection) return expired(c);
    if (connection.status !== 'active') return stopPage(c, 400, 'Not connected', 'The account was not connected.', 'Start again from your MCP host.', 'no-connection');
    const client = await id.grants.client(consent.request.client_id, id.baseOr(c.req.url)).catch(() => ({ client_id: consent.request.client_id, redirect_uris: [] }));
    return consentForm(c, id, hostOf(client, consent.request.redirect_uri), consent.request, consentId, [connection], signIn.policy, otherEndpoints(id, c.req.url, consent.request.resource, [connection]));
  }

  /** The consent form (pages.ts): the toolsets the host asked for start chosen, within what the sign-in may share; the other endpoints it may cover, unchosen. */
  function consentForm(c: Context, id: Identity, host: Host, request: AuthorizationRequest, consent: string, connections: ConnectionRecord[], allowed: Policy, others: OtherEndpoint[]): Response {
    return page(c, 200, 'Choose what to share', consentBody(id.platforms, host, request.resource, consent, connections, allowed, request.scope ?? [], approvalSelect(allowed), others));
  }

  /** Step two: the user's choice, checked against the key's policy (or the connect sign-in's), becomes a code at the host. */
  async function decide(c: Context, id: Identity, form: Record<string, string>): Promise<Response> {
    const consent = await id.grants.consent(form.consent!);
    if (!consent) return expired(c);
    const { request } = consent;
    const issuer = id.baseOr(c.req.url);
    const back = (params: Record<string, string>) => authorizationResponse(c, request.redirect_uri, request.state, issuer, params);
    if (form.decision !== 'allow') return back({ error: 'access_denied', error_description: 'The user denied access.' });
    if (form.toolsets_listed && !form.toolsets) return stopPage(c, 400, 'Choose what to share', 'No toolset was chosen.', 'Go back and choose at least one, or deny.');
    const unusable = () => stopPage(c, 400, 'Cannot sign in', 'The key or the account is no longer usable.', 'Start again from your MCP host.');
    let allowed: Policy;
    const connection = form.connection ? await id.connections.get(consent.tenant, form.connection) : undefined;
    if (!connection || connection.status !== 'active') return unusable();
    /** The accounts the sign-in may act through: the key's tenant's on its platforms, or the one connected here. */
    let usable: ConnectionRecord[];
    if (consent.key_id !== undefined) {
      const key = await id.keys.get(consent.key_id);
      if (!key || key.status !== 'active') return unusable();
      allowed = key.policy;
      usable = await usableAccounts(id, consent.tenant, key.policy);
    } else {
      // Signed in by connecting an account: that account only, under the deployment's setting.
      if (!id.config.connectSignIn || id.config.connectSignIn.tenant !== consent.tenant || form.connection !== consent.connection) return unusable();
      allowed = id.config.connectSignIn.policy;
      usable = [connection];
    }
    const platform = platformOfResource(request.resource);
    let covered: { resources: string[]; accounts: Record<string, string> };
    let policy: Policy;
    try {
      covered = coveredBy(id, c.req.url, request.resource, connection, usable, form);
      const extra = Object.keys(covered.accounts).filter((p) => p !== connection.platform);
      policy = narrowed(id.scopes, allowed, connection.platform, platform, form.toolsets ?? '', form.read_only === 'true', form.approval, extra, form.also_toolsets ?? '');
    } catch (err) {
      return stopPage(c, 400, 'Cannot sign in', err instanceof ToolError ? err.message : 'The choice is not allowed.', 'Go back and choose again.');
    }
    const several = Object.keys(covered.accounts).length > 1;
    const grant: Grant = {
      tenant: consent.tenant,
      ...(consent.key_id !== undefined ? { key_id: consent.key_id } : {}),
      connection: connection.id,
      policy,
      resource: request.resource,
      ...(covered.resources.length > 1 ? { resources: covered.resources } : {}),
      ...(several ? { accounts: covered.accounts } : {}),
      client_id: request.client_id,
      issuer,
    };
    const code = await id.grants.issueCode(form.consent!, grant, request);
    log('info', 'mcp sign-in granted', { tenant: grant.tenant, key_id: grant.key_id ?? null, connection_id: grant.connection, client_id: grant.client_id, resources: covered.resources.length });
    return back({ code });
  }
}

/** What the consent page offers for `approval`; the key's own rule applies on top (every policy of a call is checked). */
const APPROVAL_CHOICES = ['none', 'destructive', 'writes'] as const;
const APPROVAL_LABELS: Record<(typeof APPROVAL_CHOICES)[number], string> = { none: 'None', destructive: 'Destructive tools', writes: 'Every write' };

/** The consent page's select: which of the host's calls wait for a person's approval (shared/identity/approvals.ts). */
function approvalSelect(allowed: Policy): string {
  const own = allowed.approval && allowed.approval !== 'none' ? ` Your key already requires approval for ${esc(Array.isArray(allowed.approval) ? allowed.approval.join(', ') : allowed.approval)}.` : '';
  const options = APPROVAL_CHOICES.map((v) => `<option value="${v}">${esc(APPROVAL_LABELS[v])}</option>`).join('');
  return `<p><label>Ask a person to approve <select name="approval">${options}</select></label>${own}</p>`;
}

const CSRF_COOKIE = 'tes_csrf';

/**
 * Why a POST to the sign-in or consent page comes from another site, or undefined. A browser's
 * Sec-Fetch-Site decides where it is sent (the pages send no referrer, so a browser's form Origin
 * reads "null"); without it, an Origin other than this service's, or an opaque one, is refused.
 */
function crossSite(c: Context, base: string): string | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? undefined : 'This form was posted from another site.';
  const origin = c.req.header('origin');
  if (origin === 'null') return 'This form was posted from an opaque origin.';
  if (origin !== undefined && origin !== new URL(base).origin) return 'This form was posted from another site.';
  return undefined;
}

/** The form's CSRF token equals the cookie's (constant time). */
function sameToken(cookie: string | undefined, field: string | undefined): boolean {
  if (!cookie || !field) return false;
  const a = createHash('sha256').update(cookie).digest();
  const b = createHash('sha256').update(field).digest();
  return timingSafeEqual(a, b);
}

/**
 * The authorization response at the client's redirect URI (RFC 6749 §4.1.2, §4.1.2.1): the code or
 * the error, the request's `state`, and `iss` (RFC 9207 §2), so the host can tell which
 * authorization server answered before it redeems the code or shows the error.
 */
function authorizationResponse(c: Context, redirectUri: string, state: string | undefined, issuer: string, params: Record<string, string>): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, ...(state !== undefined ? { state } : {}), iss: issuer })) url.searchParams.set(k, v);
  return c.redirect(url.toString(), 302);
}

/** The end of a sign-in at the host's redirect URI with an error (RFC 6749 §4.1.2.1): the request's state and iss with it. */
function backToHost(c: Context, request: Pick<AuthorizationRequest, 'redirect_uri' | 'state'>, issuer: string, error: string, description: string): Response {
  return authorizationResponse(c, request.redirect_uri, request.state, issuer, { error, error_description: description });
}

const expired = (c: Context) => stopPage(c, 400, 'Sign-in expired', 'This sign-in expired or was already used.', 'Start again from your MCP host: it opens a new one.', 'expired');

/** The form of a POST: its fields as strings, the toolsets' checkboxes joined by commas. */
async function formOf(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    const values = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
    // The endpoints chosen (URLs: no spaces) joined by spaces.
    if (values.length) out[k] = k === 'toolsets' || k === 'also_toolsets' ? values.join(',') : k === 'also' ? values.join(' ') : values[0]!;
  }
  return out;
}

/** Pasted API keys one source address may try on the sign-in page per window. */
const KEY_SIGN_IN_LIMIT = { max: 10, window_seconds: 600 };

/** A tenant's accounts a sign-in under `policy` may act through: active, on the policy's platforms. */
async function usableAccounts(id: Identity, tenant: string, policy: Policy): Promise<ConnectionRecord[]> {
  return (await id.connections.list(tenant)).filter((r) => r.status === 'active' && policy.platforms.includes(r.platform));
}

/**
 * The other endpoints of this deployment a sign-in at `resource` may cover: the combined one, and
 * each platform's whose account the sign-in may use (`usable`), with those accounts.
 */
function otherEndpoints(id: Identity, url: string, resource: string, usable: readonly ConnectionRecord[]): OtherEndpoint[] {
  const base = id.baseOr(url);
  const here = platformOfResource(resource);
  const combined: OtherEndpoint[] = here === undefined ? [] : [{ resource: mcpResource(base), accounts: [] }];
  const platforms = [...id.platforms.keys()].filter((p) => p !== here && usable.some((r) => r.platform === p));
  return [...combined, ...platforms.map((p) => ({ resource: mcpResource(base, p), platform: p, accounts: usable.filter((r) => r.platform === p) }))];
}

/**
 * What a consent covers: the endpoint signed in at and those chosen under "Use this sign-in for"
 * (each one otherEndpoints offers), and the account on each platform: the one chosen for the
 * endpoint, else the account the form names for that platform (`account_<platform>`), else its only one.
 */
function coveredBy(id: Identity, url: string, resource: string, primary: ConnectionRecord, usable: readonly ConnectionRecord[], form: Record<string, string>): { resources: string[]; accounts: Record<string, string> } {
  const offered = otherEndpoints(id, url, resource, usable);
  const chosen = [...new Set((form.also ?? '').split(' ').filter(Boolean))];
  const accounts: Record<string, string> = { [primary.platform]: primary.id };
  for (const r of chosen) {
    const other = offered.find((o) => o.resource === r);
    if (!other) throw new ToolError('FORBIDDEN', `This sign-in cannot cover ${r.slice(0, 200)}: it covers only endpoints whose platform it has an account on.`);
    if (other.platform === undefined || other.platform === primary.platform) continue;
    const picked = form[`account_${other.platform}`] ?? other.accounts[0]?.id;
    const account = other.accounts.find((a) => a.id === picked);
    if (!account) throw new ToolError('FORBIDDEN', `The account chosen for ${r.slice(0, 200)} is not one this sign-in may use.`);
    accounts[other.platform] = account.id;
  }
  return { resources: [resource, ...chosen], accounts };
}

/**
 * The policy a user grants a host: the connection's platform (and the `extra` platforms of the
 * other endpoints chosen, each with the toolsets ticked for it, qualified), the toolsets they
 * chose (each one the key allows), read-only when they ask or the key is. Never wider than the
 * key's policy.
 */
function narrowed(scopes: Scopes, key: Policy, platform: string, endpoint: string | undefined, rawToolsets: string, readOnly: boolean, approval?: string, extra: readonly string[] = [], rawExtra = ''): Policy {
  if (!key.platforms.includes(platform) || (endpoint !== undefined && endpoint !== platform)) {
    throw new ToolError('FORBIDDEN', `The account is on ${platform}, which this endpoint or sign-in does not serve.`);
  }
  const chosen = rawToolsets.split(',').map((t) => t.trim()).filter(Boolean);
  // Toolsets named for another platform (the combined endpoint's scopes) do not apply to this account; its own lose the prefix.
  const typed = toolsetsOn(platform, chosen);
  if (chosen.length && !typed.length) throw new ToolError('FORBIDDEN', `None of the toolsets ${chosen.join(', ')} is on ${platform}, the account's platform; choose its toolsets (${scopes.of(platform).join(', ')}) or leave the field empty.`);
  const tooWide = (p: string, ts: string[]) => (key.toolsets ? ts.filter((t) => !key.toolsets!.includes(t) && !key.toolsets!.includes(`${p}:${t}`)) : []);
  const wider = tooWide(platform, typed);
  if (wider.length) throw new ToolError('FORBIDDEN', `Your sign-in does not allow toolset(s) ${wider.join(', ')}; it allows ${key.toolsets!.join(', ')}.`);
  const common = { read_only: readOnly || key.read_only, ...(key.rate_limit ? { rate_limit: key.rate_limit } : {}), ...(APPROVAL_CHOICES.includes(approval as never) && approval !== 'none' ? { approval } : {}) };
  if (!extra.length) {
    const toolsets = typed.length ? typed : key.toolsets;
    return parsePolicy({ platforms: [platform], ...(toolsets ? { toolsets } : {}), ...common }, 'toolsets');
  }
  // Several platforms: every toolset qualified, so none of one platform's names reaches another's tools.
  const own = (typed.length ? typed : scopes.of(platform).filter((t) => tooWide(platform, [t]).length === 0)).map((t) => `${platform}:${t}`);
  const ticked = [...chosen, ...rawExtra.split(',').map((t) => t.trim()).filter(Boolean)];
  const others = extra.flatMap((p) => {
    const on = [...new Set(ticked.filter((s) => platformOfScope(s) === p).map(toolsetOfScope))];
    if (!key.platforms.includes(p)) throw new ToolError('FORBIDDEN', `Your sign-in does not serve ${p}.`);
    if (!on.length) throw new ToolError('FORBIDDEN', `No toolset was chosen for the ${p} endpoint: choose at least one, or leave that endpoint out.`);
    const beyond = tooWide(p, on);
    if (beyond.length) throw new ToolError('FORBIDDEN', `Your sign-in does not allow toolset(s) ${beyond.join(', ')} on ${p}; it allows ${key.toolsets!.join(', ')}.`);
    return on.map((t) => `${p}:${t}`);
  });
  return parsePolicy({ platforms: [platform, ...extra], toolsets: [...own, ...others], ...common }, 'toolsets');
}

type ReadRequest = { request: AuthorizationRequest; host: Host } | { error: (c: Context) => Response };

/**
 * The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636, and RFC 8707 `resource`).
 * Until the client and its redirect URI are known good, errors are shown here (never redirected
 * to an unchecked URI); after that they go back to the client as `error=`.
 */
async function readRequest(id: Identity, q: Record<string, string>, url: string): Promise<ReadRequest> {
  const shown = (why: string) => ({ error: (c: Context) => stopPage(c, 400, 'Cannot sign in', why, 'The host that sent you here is misconfigured or the link was changed; start again from the host, or tell its maker.') });
  if (!q.client_id || !q.redirect_uri) return shown('The request names no client_id or redirect_uri; start again from your MCP host.');
  const base = id.baseOr(url);
  let client;
  try {
    client = await id.grants.client(q.client_id, base);
  } catch (err) {
    return shown(err instanceof Error ? err.message : 'Unknown client.');
  }
  if (!redirectRegistered(client.redirect_uris, q.redirect_uri)) return shown('The redirect_uri is not one the client registered.');
  const toClient = (error: string, description: string) => ({ error: (c: Context) => authorizationResponse(c, q.redirect_uri!, q.state, base, { error, error_description: description }) });
  if (q.response_type !== 'code') return toClient('unsupported_response_type', 'Only response_type=code is supported.');
  if (!q.code_challenge || q.code_challenge_method !== 'S256') return toClient('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256 (plain is refused).');
  const endpoints = [mcpResource(base), ...[...id.platforms.keys()].map((p) => mcpResource(base, p))];
  const resource = q.resource ?? mcpResource(base);
  if (!endpoints.includes(resource)) return toClient('invalid_target', `"resource" must be one of this service's MCP endpoints, e.g. ${mcpResource(base, 'crm')}.`);
  // RFC 6749 §4.1.2.1: a scope this endpoint does not understand goes back as invalid_scope.
  const scope = parseScope(q.scope);
  const understood = id.scopes.understood(platformOfResource(resource));
  const unknown = scope.filter((s) => !understood.includes(s));
  if (unknown.length) return toClient('invalid_scope', `Unknown scope ${unknown.slice(0, 5).join(' ')}; the scopes of ${resource} are its toolsets: ${id.scopes.supported(platformOfResource(resource)).join(' ')}.`.slice(0, 500));
  return { request: { client_id: client.client_id, redirect_uri: q.redirect_uri, challenge: q.code_challenge, resource, ...(q.state !== undefined ? { state: q.state } : {}), ...(scope.length ? { scope } : {}) }, host: hostOf(client, q.redirect_uri) };
}
