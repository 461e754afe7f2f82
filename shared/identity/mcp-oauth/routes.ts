import type { Context, Hono } from 'hono';
import { ToolError } from '../../core/errors';
import { log } from '../../core/log';
import type { Runtime } from '../../core/runtime';
import type { Identity } from '../identity';
import { identityOf } from '../index';
import { isServiceKey } from '../keys';
import { parsePolicy, type Policy } from '../policy';
import { PLATFORM_AUTH } from '../providers';
import { page } from '../pages/layout';
import { stopPage } from '../pages/parts';
import { AUTHORIZE_PATH, consentBody, hostOf, noAccountBody, signInBody, type Host } from './pages';
import { OAuthError, type AuthorizationRequest, type Grant } from './grants';
import type { ConnectionRecord } from '../connections';
import { mcpResource, RESOURCE_METADATA_PATH } from './resource';
import { parseScope, scopesSupported, scopesUnderstood, toolsetsOn, TOOLSETS } from './scopes';

const TOKEN_PATH = '/oauth/token';
const REGISTER_PATH = '/oauth/register';
const REVOKE_PATH = '/oauth/revoke';

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
    if (platform !== undefined && !Object.hasOwn(PLATFORM_AUTH, platform)) {
      return c.json({ error: 'not_found', error_description: `No MCP endpoint /v1/mcp/${platform}. Platforms: ${Object.keys(PLATFORM_AUTH).join(', ')}.` }, 404);
    }
    const id = await identityOf(rt);
    const base = id.baseOr(c.req.url);
    const external = id.config.externalAuth;
    return c.json({
      resource: mcpResource(base, platform),
      // The external identity provider when one is configured (MCP_AUTH_SERVER=external), else this service's own.
      authorization_servers: [external?.issuer ?? base],
      // The provider's scopes, or the toolsets this endpoint serves (scopes.ts): a host asks for them when a challenge names none.
      ...(external ? (external.scopes.length ? { scopes_supported: external.scopes } : {}) : { scopes_supported: scopesSupported(platform) }),
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

  // --- Authorization server metadata (RFC 8414) ---
  app.get('/.well-known/oauth-authorization-server', async (c) => {
    const base = (await identityOf(rt)).baseOr(c.req.url);
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
      scopes_supported: scopesSupported(),
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
  });

  // --- Dynamic client registration (RFC 7591) ---
  app.post(REGISTER_PATH, async (c) => {
    try {
      const body = (await c.req.json().catch(() => undefined)) as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of client metadata with "redirect_uris".');
      const id = await identityOf(rt);
      const base = id.baseOr(c.req.url);
      const client = await id.grants.register(body as Record<string, unknown>, (clientId) => `${base}${REGISTER_PATH}/${clientId}`);
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
    const client = await grants.registered(clientId, bearer);
    // RFC 7592 §2: an unknown client or a wrong token is 401, and says nothing about which.
    if (!client) return c.json({ error: 'invalid_token', error_description: 'Send the registration_access_token of this client as "Authorization: Bearer …".' }, 401, { ...noStore, 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    if (c.req.method === 'GET') return c.json(client, 200, noStore);
    if (c.req.method === 'PUT') {
      try {
        const body = (await c.req.json().catch(() => undefined)) as unknown;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'The body must be a JSON object of the client\'s full metadata, with "client_id" and "redirect_uris" (RFC 7592 §2.2).');
        const base = id.baseOr(c.req.url);
        const updated = await grants.update(clientId, body as Record<string, unknown>, (cid) => `${base}${REGISTER_PATH}/${cid}`);
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
      await (await identityOf(rt)).grants.revoke(form.token, form.client_id);
      return c.body(null, 200, noStore);
    } catch (err) {
      return oauthError(c, err);
    }
  });

  // --- Token endpoint ---
  app.post(TOKEN_PATH, async (c) => {
    try {
      const form = Object.fromEntries(Object.entries(await c.req.parseBody().catch(() => ({}))).filter((e): e is [string, string] => typeof e[1] === 'string'));
      const grants = (await identityOf(rt)).grants;
      if (form.grant_type === 'authorization_code') return c.json(await grants.exchangeCode(form), 200, noStore);
      if (form.grant_type === 'refresh_token') return c.json(await grants.refresh(form), 200, noStore);
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
    const platform = platformOf(read.request.resource, id.baseOr(c.req.url));
    return page(c, 200, 'Sign in', signInBody(read.host, read.request.resource, platform, connectable(id, platform), c.req.query()));
  });

  app.post(AUTHORIZE_PATH, async (c) => {
    const id = await identityOf(rt);
    const form = await formOf(c);
    if (form.consent) return decide(c, id, form);
    const read = await readRequest(id, form, c.req.url);
    if ('error' in read) return read.error(c);
    const platform = platformOf(read.request.resource, id.baseOr(c.req.url));
    if (form.cancel !== undefined) return backToHost(c, read.request, 'access_denied', form.cancel === 'no_account' ? `The user has no account this service can use for ${read.request.resource}.` : 'The user went back without signing in.');
    if (form.connect !== undefined) return connectToSignIn(c, id, read, platform, form.connect);
    const presented = (form.service_key ?? '').trim();
    let key;
    try {
      if (!isServiceKey(presented)) throw new ToolError('UNAUTHORIZED', 'Paste a service key (tes_…).');
      key = await id.keys.authenticate(presented);
    } catch (err) {
      return stopPage(c, 401, 'Sign in', err instanceof ToolError ? err.message : 'The key was refused.', 'Go back and paste a valid service key, or sign in another way.');
    }
    const connections = (await id.connections.list(key.tenant, platform ? { platform } : {})).filter((r) => r.status === 'active' && key.policy.platforms.includes(r.platform));
    if (connections.length === 0) {
      const { service_key: _key, ...query } = form;
      return page(c, 400, 'No account to use', noAccountBody(read.host, key.tenant, platform, connectable(id, platform), query));
    }
    return consentForm(c, read.host, read.request, await id.grants.startConsent(read.request, { key }), connections, key.policy);
  });

  /** The OAuth platforms a user may sign in with by connecting an account here (MCP_CONNECT_SIGN_IN), for this endpoint. */
  function connectable(id: Identity, endpoint: string | undefined): string[] {
    const signIn = id.config.connectSignIn;
    if (!signIn) return [];
    return signIn.policy.platforms.filter((p) => (endpoint === undefined || p === endpoint) && PLATFORM_AUTH[p]?.oauth && id.config.oauthClients[p]);
  }

  /**
   * Sign-in by connecting a vendor account: a pending connection in the configured tenant, and
   * its connect link, whose flow (the vendor's sign-in, then the callback) ends back here on
   * the consent page, with the grant bound to that connection.
   */
  async function connectToSignIn(c: Context, id: Identity, read: { request: AuthorizationRequest; host: Host }, endpoint: string | undefined, platform: string): Promise<Response> {
    const signIn = id.config.connectSignIn;
    if (!signIn || !connectable(id, endpoint).includes(platform)) return stopPage(c, 400, 'Cannot sign in', `Signing in with a ${PLATFORM_AUTH[platform]?.vendor ?? platform} account is not offered for this endpoint.`, 'Go back and use a service key.');
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
    const client = await id.grants.client(consent.request.client_id).catch(() => ({ client_id: consent.request.client_id, redirect_uris: [] }));
    return consentForm(c, hostOf(client, consent.request.redirect_uri), consent.request, consentId, [connection], signIn.policy);
  }

  /** The consent form (pages.ts): the toolsets the host asked for start chosen, within what the sign-in may share. */
  function consentForm(c: Context, host: Host, request: AuthorizationRequest, consent: string, connections: ConnectionRecord[], allowed: Policy): Response {
    return page(c, 200, 'Choose what to share', consentBody(host, request.resource, consent, connections, allowed, request.scope ?? []));
  }

  /** Step two: the user's choice, checked against the key's policy (or the connect sign-in's), becomes a code at the host. */
  async function decide(c: Context, id: Identity, form: Record<string, string>): Promise<Response> {
    const consent = await id.grants.consent(form.consent!);
    if (!consent) return expired(c);
    const { request } = consent;
    if (form.decision !== 'allow') return backToHost(c, request, 'access_denied', 'The user denied access.');
    if (form.toolsets_listed && !form.toolsets) return stopPage(c, 400, 'Choose what to share', 'No toolset was chosen.', 'Go back and choose at least one, or deny.');
    const unusable = () => stopPage(c, 400, 'Cannot sign in', 'The key or the account is no longer usable.', 'Start again from your MCP host.');
    let allowed: Policy;
    if (consent.key_id !== undefined) {
      const key = await id.keys.get(consent.key_id);
      if (!key || key.status !== 'active') return unusable();
      allowed = key.policy;
    } else {
      // Signed in by connecting an account: that account only, under the deployment's setting.
      if (!id.config.connectSignIn || id.config.connectSignIn.tenant !== consent.tenant || form.connection !== consent.connection) return unusable();
      allowed = id.config.connectSignIn.policy;
    }
    const connection = form.connection ? await id.connections.get(consent.tenant, form.connection) : undefined;
    if (!connection || connection.status !== 'active') return unusable();
    const platform = platformOf(request.resource, id.baseOr(c.req.url));
    let policy: Policy;
    try {
      policy = narrowed(allowed, connection.platform, platform, form.toolsets ?? '', form.read_only === 'true');
    } catch (err) {
      return stopPage(c, 400, 'Cannot sign in', err instanceof ToolError ? err.message : 'The choice is not allowed.', 'Go back and choose again.');
    }
    const grant: Grant = { tenant: consent.tenant, ...(consent.key_id !== undefined ? { key_id: consent.key_id } : {}), connection: connection.id, policy, resource: request.resource, client_id: request.client_id };
    const code = await id.grants.issueCode(form.consent!, grant, request);
    log('info', 'mcp sign-in granted', { tenant: grant.tenant, key_id: grant.key_id ?? null, connection_id: grant.connection, client_id: grant.client_id });
    return backToHost(c, request, 'code', code);
  }
}

/** The end of a sign-in at the host's redirect URI: a code, or an error (RFC 6749 §4.1.2), with the request's state. */
function backToHost(c: Context, request: Pick<AuthorizationRequest, 'redirect_uri' | 'state'>, what: 'code', code: string): Response;
function backToHost(c: Context, request: Pick<AuthorizationRequest, 'redirect_uri' | 'state'>, error: string, description: string): Response;
function backToHost(c: Context, request: Pick<AuthorizationRequest, 'redirect_uri' | 'state'>, what: string, value: string): Response {
  const url = new URL(request.redirect_uri);
  if (what === 'code') url.searchParams.set('code', value);
  else {
    url.searchParams.set('error', what);
    url.searchParams.set('error_description', value);
  }
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  return c.redirect(url.toString(), 302);
}

const expired = (c: Context) => stopPage(c, 400, 'Sign-in expired', 'This sign-in expired or was already used.', 'Start again from your MCP host: it opens a new one.', 'expired');

/** The form of a POST: its fields as strings, the toolsets' checkboxes joined by commas. */
async function formOf(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    const values = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
    if (values.length) out[k] = k === 'toolsets' ? values.join(',') : values[0]!;
  }
  return out;
}

/** The platform an MCP resource is for; undefined for the combined endpoint. */
function platformOf(resource: string, base: string): string | undefined {
  return resource === mcpResource(base) ? undefined : resource.slice(mcpResource(base).length + 1);
}

/**
 * The policy a user grants a host: the connection's platform only, the toolsets they typed (each
 * one the key allows), read-only when they ask or the key is. Never wider than the key's policy.
 */
function narrowed(key: Policy, platform: string, endpoint: string | undefined, rawToolsets: string, readOnly: boolean): Policy {
  if (!key.platforms.includes(platform) || (endpoint !== undefined && endpoint !== platform)) {
    throw new ToolError('FORBIDDEN', `The account is on ${platform}, which this endpoint or sign-in does not serve.`);
  }
  const chosen = rawToolsets.split(',').map((t) => t.trim()).filter(Boolean);
  // Toolsets named for another platform (the combined endpoint's scopes) do not apply to this account; its own lose the prefix.
  const typed = toolsetsOn(platform, chosen);
  if (chosen.length && !typed.length) throw new ToolError('FORBIDDEN', `None of the toolsets ${chosen.join(', ')} is on ${platform}, the account's platform; choose its toolsets (${(TOOLSETS[platform] ?? []).join(', ')}) or leave the field empty.`);
  const toolsets = typed.length ? typed : key.toolsets;
  const policy = parsePolicy({ platforms: [platform], ...(toolsets ? { toolsets } : {}), read_only: readOnly || key.read_only, ...(key.rate_limit ? { rate_limit: key.rate_limit } : {}) }, 'toolsets');
  const wider = key.toolsets && typed.filter((t) => !key.toolsets!.includes(t) && !key.toolsets!.includes(`${platform}:${t}`));
  if (wider && wider.length) throw new ToolError('FORBIDDEN', `Your sign-in does not allow toolset(s) ${wider.join(', ')}; it allows ${key.toolsets!.join(', ')}.`);
  return policy;
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
  let client;
  try {
    client = await id.grants.client(q.client_id);
  } catch (err) {
    return shown(err instanceof Error ? err.message : 'Unknown client.');
  }
  if (!client.redirect_uris.includes(q.redirect_uri)) return shown('The redirect_uri is not one the client registered.');
  const toClient = (error: string, description: string) => ({ error: (c: Context) => backToHost(c, { redirect_uri: q.redirect_uri!, ...(q.state !== undefined ? { state: q.state } : {}) }, error, description) });
  if (q.response_type !== 'code') return toClient('unsupported_response_type', 'Only response_type=code is supported.');
  if (!q.code_challenge || q.code_challenge_method !== 'S256') return toClient('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256 (plain is refused).');
  const base = id.baseOr(url);
  const endpoints = [mcpResource(base), ...Object.keys(PLATFORM_AUTH).map((p) => mcpResource(base, p))];
  const resource = q.resource ?? mcpResource(base);
  if (!endpoints.includes(resource)) return toClient('invalid_target', `"resource" must be one of this service's MCP endpoints, e.g. ${mcpResource(base, 'crm')}.`);
  // RFC 6749 §4.1.2.1: a scope this endpoint does not understand goes back as invalid_scope.
  const scope = parseScope(q.scope);
  const understood = scopesUnderstood(platformOf(resource, base));
  const unknown = scope.filter((s) => !understood.includes(s));
  if (unknown.length) return toClient('invalid_scope', `Unknown scope ${unknown.slice(0, 5).join(' ')}; the scopes of ${resource} are its toolsets: ${scopesSupported(platformOf(resource, base)).join(' ')}.`.slice(0, 500));
  return { request: { client_id: client.client_id, redirect_uri: q.redirect_uri, challenge: q.code_challenge, resource, ...(q.state !== undefined ? { state: q.state } : {}), ...(scope.length ? { scope } : {}) }, host: hostOf(client, q.redirect_uri) };
}
