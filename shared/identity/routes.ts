import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import type { Runtime } from '../core/runtime';
import { bearerKey } from './bearer';
import { auditKeyWrites, checkAdmin } from './admin';
import { log } from '../core/log';
import { view, type ConnectionRecord } from './connections';
import { LINK_SECONDS, type Identity, type LinkRecord } from './identity';
import { identityOf } from './index';
import { isServiceKey, type KeyRecord } from './keys';
import { describePolicy, managesConnections } from './policy';
import { authorizationUrl, clientSecret, pkcePair, TokenError, tokenRequest, vendorAccount } from './oauth';
import { callbackValues, fillUrl, type AuthKind } from './providers';
import { K, secretHash } from './records';
import type { Sealed } from './vault';
import { boundedBody } from '../core/json-body';
import { esc, page, pageAssets } from './pages/layout';
import { connectedPage, stopPage } from './pages/parts';
import { revokeAtVendor } from './vendor-revoke';

/** The largest body of an identity route (admin API, connections, the connect page's form): small JSON objects. */
export const IDENTITY_MAX_BODY_BYTES = 64 * 1024;

/** What a pending OAuth authorization remembers between the redirect and the callback. */
interface StateRecord {
  /** SHA-256 of the connect link's token (records.ts secretHash). */
  link_hash: string;
  tenant: string;
  connection: string;
  platform: string;
  nonce: string;
  /** The PKCE code verifier, sealed by the vault under the connection's context. */
  verifier?: Sealed;
}

const COOKIE = 'tes_connect';
const sha = (s: string) => createHash('sha256').update(s).digest();

/**
 * The identity endpoints: the admin API over service keys (admin credential), connections of a
 * service key's tenant, the hosted connect page and the vendors' OAuth callback.
 */
export function identityRoutes(app: Hono<any>, rt: Runtime): void {
  pageAssets(app);
  const json = (c: Context, status: number, data: unknown) => c.json({ success: true, data }, status as 200);
  const fail = (c: Context, err: unknown) => {
    const out = failure(err, { platform: '', tool: '' });
    return c.json(out.body, out.status as 400, { ...out.headers, 'cache-control': 'no-store' });
  };
  /** A route answered as an envelope, its errors included. */
  const route = (work: (c: Context, id: Identity) => Promise<Response>) => async (c: Context) => {
    try {
      return await work(c, await identityOf(rt));
    } catch (err) {
      return fail(c, err);
    }
  };

  // Every body is bounded before it is read (shared/core/json-body.ts): larger is 413 in the envelope.
  const tooLargeBody = (c: Context) => {
    const out = failure(new ToolError('INVALID_PARAMETER', `The request body is larger than ${IDENTITY_MAX_BODY_BYTES} bytes; these routes take a small JSON object (or form).`, { parameter: '(body)', expected: `at most ${IDENTITY_MAX_BODY_BYTES} bytes` }), { platform: '', tool: '' });
    return c.json(out.body, 413, { 'cache-control': 'no-store' });
  };
  for (const path of ['/v1/admin/*', '/v1/connections', '/v1/connections/*', '/v1/connect/*']) app.use(path, boundedBody(IDENTITY_MAX_BODY_BYTES, tooLargeBody));

  // --- Admin API: service keys --------------------------------------------------------------
  auditKeyWrites(app, rt);
  const admin = (work: (c: Context, id: Identity) => Promise<Response>) =>
    route(async (c, id) => {
      await checkAdmin(c, id);
      return work(c, id);
    });
  app.post('/v1/admin/keys', admin(async (c, id) => {
    const body = await readJson(c);
    const created = await id.keys.create({ tenant: body.tenant, name: body.name, policy: body.policy, expires_at: body.expires_at });
    log('info', 'service key created', { key_id: created.record.id, tenant: created.record.tenant });
    return json(c, 201, { key: created.key, ...created.record });
  }));
  app.get('/v1/admin/keys', admin(async (c, id) => json(c, 200, { keys: await id.keys.list(c.req.query('tenant')) })));
  app.get('/v1/admin/keys/:id', admin(async (c, id) => {
    const found = await id.keys.get(c.req.param('id')!);
    if (!found) throw new ToolError('NOT_FOUND', `No service key "${c.req.param('id')}".`, { key_id: c.req.param('id') });
    return json(c, 200, found);
  }));
  app.post('/v1/admin/keys/:id/rotate', admin(async (c, id) => {
    const created = await id.keys.rotate(c.req.param('id')!);
    return json(c, 201, { key: created.key, ...created.record });
  }));
  app.delete('/v1/admin/keys/:id', admin(async (c, id) => json(c, 200, await id.keys.revoke(c.req.param('id')!))));

  // --- Connections of the caller's tenant -----------------------------------------------------
  const keyed = (work: (c: Context, id: Identity, key: KeyRecord) => Promise<Response>) =>
    route(async (c, id) => {
      const auth = bearerKey(c.req.header('authorization'));
      if (!auth.ok) throw auth.error;
      if (!isServiceKey(auth.key)) throw new ToolError('UNAUTHORIZED', 'Connections are managed with a service key (tes_…), not a vendor key.', { header: 'Authorization' });
      return work(c, id, await id.keys.authenticate(auth.key));
    });

  /**
   * A connection this key may see: one of its tenant's, on one of its platforms; any other is as
   * unknown as one that never existed. `manage`: the key must also be allowed to change the
   * tenant's connections (reconnect, delete), or FORBIDDEN naming why.
   */
  const connectionFor = async (id: Identity, key: KeyRecord, connectionId: string, manage: boolean): Promise<ConnectionRecord> => {
    const record = await id.connections.get(key.tenant, connectionId);
    if (!record || !key.policy.platforms.includes(record.platform)) {
      throw new ToolError('NOT_FOUND', `No connection "${connectionId}" this key may use (its platforms: ${key.policy.platforms.join(', ')}). List them with GET /v1/connections.`, { connection_id: connectionId });
    }
    if (manage) requireManage(key);
    return record;
  };

  app.post('/v1/connections', keyed(async (c, id, key) => {
    requireManage(key);
    const body = await readJson(c);
    const platform = body.platform;
    // Every platform of the deployment: the identity Lambda itself serves none of their tools.
    const auth = typeof platform === 'string' ? id.platforms.get(platform)?.auth : undefined;
    if (!auth) {
      const known = [...id.platforms.keys()];
      throw new ToolError('INVALID_PARAMETER', `"platform" must be one of ${known.join(', ')}.`, { parameter: 'platform', expected: `one of ${known.join(', ')}` });
    }
    if (!key.policy.platforms.includes(platform as string)) {
      throw new ToolError('FORBIDDEN', `This service key may not use platform "${platform}"; its policy allows platforms ${key.policy.platforms.join(', ')}.`, { platform, allowed: { platforms: key.policy.platforms } });
    }
    const endUser = body.end_user;
    if (typeof endUser !== 'string' || endUser.length < 1 || endUser.length > 200) {
      throw new ToolError('INVALID_PARAMETER', '"end_user" must be your id of the end user whose account this is (1-200 characters).', { parameter: 'end_user', expected: 'string, 1-200 characters' });
    }
    const kind = (body.auth ?? auth.kinds[0]) as AuthKind;
    if (!auth.kinds.includes(kind)) {
      throw new ToolError('INVALID_PARAMETER', `"auth" for ${platform} must be ${auth.kinds.map((k) => `"${k}"`).join(' or ')}.`, { parameter: 'auth', expected: auth.kinds.join(' | ') });
    }
    if (kind === 'oauth') id.client(platform as string);
    const record = await id.connections.create(key.tenant, platform as string, endUser, kind);
    return json(c, 201, { connection: view(record), ...(await id.link(record)) });
  }));

  app.get('/v1/connections', keyed(async (c, id, key) => {
    const q = c.req.query();
    const list = await id.connections.list(key.tenant, { ...(q.platform ? { platform: q.platform } : {}), ...(q.end_user ? { end_user: q.end_user } : {}) });
    // Only the key's own platforms: another platform's accounts are none of its business.
    return json(c, 200, { connections: list.filter((r) => key.policy.platforms.includes(r.platform)).map(view) });
  }));

  // The vendor sends the end user's browser back here (before /:id, which it would match).
  app.get('/v1/connections/callback', (c) => callback(c));

  app.get('/v1/connections/:id', keyed(async (c, id, key) => json(c, 200, view(await connectionFor(id, key, c.req.param('id')!, false)))));
  app.post('/v1/connections/:id/reconnect', keyed(async (c, id, key) => {
    const record = await connectionFor(id, key, c.req.param('id')!, true);
    return json(c, 200, { connection: view(record), ...(await id.link(record)) });
  }));
  app.delete('/v1/connections/:id', keyed(async (c, id, key) => {
    const record = await connectionFor(id, key, c.req.param('id')!, true);
    const vendorRevoked = await revokeAtVendor(id, record);
    await id.connections.remove(record);
    return json(c, 200, { id: record.id, deleted: true, vendor_revoked: vendorRevoked });
  }));

  // --- The hosted connect page ----------------------------------------------------------------
  app.get('/v1/connect/:token', async (c) => {
    const id = await identityOf(rt);
    const link = await id.store.get<LinkRecord>(K.link(secretHash(c.req.param('token'))));
    const record = link && (await id.connections.get(link.tenant, link.connection));
    if (!link || !record) return stopPage(c, 404, 'Link expired', 'This connect link has expired or was used.', 'Ask the app that sent you for a new one.');
    const described = id.platforms.get(record.platform);
    const vendor = described?.vendor ?? record.platform;
    if (record.kind === 'oauth') {
      return page(c, 200, `Connect ${vendor}`, `<p>Connect your ${esc(vendor)} account for <strong>${esc(record.end_user)}</strong>. You sign in at ${esc(vendor)} and approve access there; this service never sees your password.</p><div class="actions"><a id="authorize" href="/v1/connect/${esc(c.req.param('token'))}/authorize" class="button">Continue to ${esc(vendor)}</a></div>`);
    }
    return page(c, 200, `Connect ${vendor}`, `<p>Connect your ${esc(vendor)} account for <strong>${esc(record.end_user)}</strong> with its key. It is stored encrypted and never shown again.</p><form id="api-key" method="post" action="/v1/connect/${esc(c.req.param('token'))}"><label for="api_key">${esc(described?.auth.keyLabel ?? 'API key')}</label><input id="api_key" name="api_key" type="password" autocomplete="off" required><div class="actions"><button type="submit">Connect</button></div></form>`);
  });

  app.get('/v1/connect/:token/authorize', async (c) => {
    const id = await identityOf(rt);
    const token = c.req.param('token');
    const link = await id.store.get<LinkRecord>(K.link(secretHash(token)));
    if (!link) return stopPage(c, 404, 'Link expired', 'This connect link has expired or was used.', 'Ask the app that sent you for a new one.');
    try {
      const provider = id.provider(link.platform);
      const client = id.client(link.platform);
      const state = randomBytes(24).toString('base64url');
      const nonce = randomBytes(24).toString('base64url');
      const pkce = provider.pkce ? pkcePair() : undefined;
      const verifier = pkce && (await (await id.vault()).seal(pkce.verifier, { tenant: link.tenant, connection: link.connection }));
      const record: StateRecord = { link_hash: secretHash(token), tenant: link.tenant, connection: link.connection, platform: link.platform, nonce: sha(nonce).toString('hex'), ...(verifier ? { verifier } : {}) };
      await id.store.put(K.state(secretHash(state)), record, LINK_SECONDS);
      // The state is bound to this browser: the callback must come with this cookie.
      setCookie(c, COOKIE, nonce, { path: '/v1/connections/callback', httpOnly: true, sameSite: 'Lax', secure: id.base().startsWith('https:'), maxAge: LINK_SECONDS });
      return c.redirect(authorizationUrl(provider, id.authorizeBase(link.platform), client, id.redirectUri(), state, pkce?.challenge), 302);
    } catch (err) {
      // The link's account connects with a key (no OAuth flow): the visitor's mistake, not the service's.
      const status = err instanceof ToolError && err.code !== 'INTERNAL_ERROR' ? 400 : 500;
      return page(c, status, 'Cannot connect', `<p class="notice bad">${esc(err instanceof ToolError ? err.message : 'The service could not start the authorization.')}</p>`);
    }
  });

  app.post('/v1/connect/:token', async (c) => {
    const id = await identityOf(rt);
    const token = c.req.param('token');
    const link = await id.store.get<LinkRecord>(K.link(secretHash(token)));
    const record = link && (await id.connections.get(link.tenant, link.connection));
    if (!link || !record) return stopPage(c, 404, 'Link expired', 'This connect link has expired or was used.', 'Ask the app that sent you for a new one.');
    if (record.kind !== 'api_key') return stopPage(c, 400, 'Wrong form', 'This account connects through its vendor\'s sign-in page.', 'Go back and follow the link.');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const apiKey = typeof form.api_key === 'string' ? form.api_key.trim() : '';
    if (!apiKey || apiKey.length > 4096 || /\s/.test(apiKey)) return stopPage(c, 400, 'Key missing', 'The key was empty or not one token.', 'Go back, paste the API key (one token, no spaces) and submit again.');
    await id.store.delete?.(K.link(secretHash(token)));
    await id.connections.saveCredential(record, { kind: 'api_key', api_key: apiKey });
    log('info', 'connection connected', { connection_id: record.id, tenant: record.tenant, platform: record.platform });
    return connectedPage(c, id.platforms, { ...record, status: 'active' });
  });

  async function callback(c: Context): Promise<Response> {
    const id = await identityOf(rt);
    const q = c.req.query();
    const bad = (why: string) => page(c, 400, 'Cannot connect', `<p class="notice bad">${esc(why)}</p>`);
    if (!q.state) return bad('The vendor sent no state; start again from your connect link.');
    // Single use: of two callbacks with one state, exactly one claims it.
    const stateHash = secretHash(q.state);
    const claimed = await id.store.putIfAbsent?.(K.stateUsed(stateHash), true, LINK_SECONDS);
    const state = await id.store.get<StateRecord>(K.state(stateHash));
    if (!claimed || !state) return bad('This authorization has expired or was already used; start again from your connect link.');
    await id.store.delete?.(K.state(stateHash));
    const nonce = getCookie(c, COOKIE);
    if (!nonce || !timingSafeEqual(sha(nonce), Buffer.from(state.nonce, 'hex'))) return bad('This authorization was started in another browser; start again from your connect link.');
    if (q.error) return bad(`The vendor did not grant access (${q.error}). Start again from your connect link if you want to connect.`);
    const record = await id.connections.get(state.tenant, state.connection);
    if (!record || !q.code) return bad('The connection is gone or the vendor sent no code; start again.');
    const provider = id.provider(state.platform);
    const values = callbackValues(provider, q);
    if (!values) return bad('The vendor\'s callback named no valid account; start again.');
    const client = id.client(state.platform);
    let connected: ConnectionRecord;
    try {
      const tokens = await tokenRequest(id.fetchFor(state.platform), fillUrl(id.config.tokenUrls[state.platform] ?? provider.tokenUrl, values), {
        grant_type: 'authorization_code',
        code: q.code,
        client_id: client.id,
        client_secret: await clientSecret(client),
        redirect_uri: id.redirectUri(),
        ...(state.verifier ? { code_verifier: await (await id.vault()).open(state.verifier, { tenant: state.tenant, connection: state.connection }) } : {}),
      }, rt.config.upstreamTimeoutMs, id.now());
      const base = provider.apiBase?.(values);
      const account = await vendorAccount(id.fetchFor(state.platform), provider, tokens.access_token, base, rt.config.upstreamTimeoutMs);
      connected = await id.connections.saveCredential(record, tokens, { ...(base ? { base_url: base } : {}), ...(Object.keys(values).length ? { vendor: values } : {}), ...(account ? { account } : {}) });
    } catch (err) {
      if (err instanceof TokenError) return bad(`The vendor refused the authorization code: ${err.message} Start again from your connect link.`);
      throw err;
    }
    const link = await id.store.get<LinkRecord>(K.link(state.link_hash));
    await id.store.delete?.(K.link(state.link_hash));
    log('info', 'connection connected', { connection_id: record.id, tenant: record.tenant, platform: record.platform });
    // A connection made to sign an MCP host in goes on to that sign-in's consent page.
    if (link?.then?.startsWith('/')) return c.redirect(link.then, 302);
    return connectedPage(c, id.platforms, connected);
  }
}

/** FORBIDDEN unless the key may create, reconnect and delete connections (shared/identity/policy.ts managesConnections). */
function requireManage(key: KeyRecord): void {
  if (managesConnections(key.policy)) return;
  const why = key.policy.read_only ? 'it is read-only, and creating, reconnecting or deleting a connection writes' : key.policy.manage_connections === false ? 'its policy says "manage_connections": false' : 'its policy limits its toolsets and does not say "manage_connections": true';
  throw new ToolError('FORBIDDEN', `This service key may not manage connections: ${why}. Its policy allows ${describePolicy(key.policy)}. Use a key whose policy allows it (npm run keys -- create … --manage-connections).`, {
    allowed: { platforms: key.policy.platforms, manage_connections: false },
  });
}

async function readJson(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ToolError('INVALID_PARAMETER', 'The request body must be a JSON object.', { parameter: '(body)', expected: 'JSON object' });
  }
  return body as Record<string, unknown>;
}

export { esc, page } from './pages/layout';
