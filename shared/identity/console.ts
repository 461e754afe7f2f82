import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import type { Identity } from './identity';
import { identityOf } from './index';
import type { KeyView } from './keys';
import { esc, page } from './pages/layout';
import { facts } from './pages/parts';
import { knownPlatforms, vendorName } from './providers';
import { K } from './records';
import { adminCredential, isAdminCredential } from './admin';

/**
 * The operator console (`/console`): sign in with the admin credential, then run the service from
 * one page. It is a client of the admin API only — every change is a request to `/v1/admin/…` made
 * in-process with the admin credential, so the API's checks and logs are the console's too.
 * A session is a random id in an HttpOnly, SameSite=Strict cookie, kept in the Store as its hash;
 * every form carries the session's CSRF token and a cross-origin POST is refused.
 *
 * Panes are a list (PANES): service keys today; the approvals and audit-trail panes join it with
 * their admin routes, as do connections, OAuth grants, event subscriptions and MCP tasks once the
 * admin API lists them.
 */

const COOKIE = 'tes_console';
const SESSION_SECONDS = 8 * 3600;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface Session {
  csrf: string;
}

/** What a pane renders with: the admin API, the session's CSRF field, the notice of the last action. */
export interface PaneContext {
  admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  csrf: string;
}

export interface Pane {
  id: string;
  title: string;
  render: (ctx: PaneContext) => Promise<string>;
}

const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

/** Service keys: every tenant's, with create (a policy), rotate and revoke. */
const keysPane: Pane = {
  id: 'keys',
  title: 'Service keys',
  async render({ admin, csrf }) {
    const listed = await admin('GET', '/v1/admin/keys');
    const keys = (listed.body?.data?.keys ?? []) as KeyView[];
    const rows = keys.map((k) => {
      const p = k.policy;
      const policy = [p.platforms.join(', '), p.toolsets ? `toolsets ${p.toolsets.join(', ')}` : 'all toolsets', p.read_only ? 'read-only' : 'reads and writes'].join(' · ');
      const actions = k.status === 'active'
        ? `<form method="post" action="/console/keys/${esc(k.id)}/rotate">${csrfField(csrf)}<button type="submit" class="secondary">Rotate</button></form><form method="post" action="/console/keys/${esc(k.id)}/revoke">${csrfField(csrf)}<button type="submit" class="danger">Revoke</button></form>`
        : '';
      return `<tr><td><code>${esc(k.id)}</code>${k.name ? `<br>${esc(k.name)}` : ''}</td><td>${esc(k.tenant)}</td><td>${esc(policy)}</td><td>${esc(k.status)}${k.expires_at ? `<br><span class="muted">until ${esc(k.expires_at.slice(0, 10))}</span>` : ''}</td><td><div class="actions">${actions}</div></td></tr>`;
    }).join('');
    const table = keys.length
      ? `<div class="table"><table><caption class="muted">${keys.length} key${keys.length === 1 ? '' : 's'}</caption><thead><tr><th scope="col">Key</th><th scope="col">Tenant</th><th scope="col">Policy</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table></div>`
      : '<p class="muted">No service keys yet.</p>';
    const platforms = knownPlatforms().map((p) => `<label class="choice"><input type="checkbox" name="platforms" value="${esc(p)}"><span>${esc(p)} <span class="what">${esc(vendorName(p))}</span></span></label>`).join('');
    const create = `<form id="create-key" method="post" action="/console/keys">${csrfField(csrf)}<label for="tenant">Tenant</label><input id="tenant" name="tenant" required placeholder="acme"><label for="name">Name <span class="muted">(optional)</span></label><input id="name" name="name" placeholder="nightly sync"><fieldset><legend>Platforms</legend>${platforms}</fieldset><label for="toolsets">Toolsets <span class="muted">(comma-separated; empty: all)</span></label><input id="toolsets" name="toolsets" placeholder="records, deals"><label class="switch"><input type="checkbox" name="read_only" value="true"><span><strong>Read-only</strong><span class="what">Only tools that read.</span></span></label><div class="actions"><button type="submit">Create key</button></div></form>`;
    return `${table}<h3>New key</h3>${create}`;
  },
};

/** The console's routes, as serverless.yml routes them to the identity function (with the stylesheet's). */
export const PAGE_ROUTES = ['GET /pages/style.css', 'GET /console', 'POST /console/sign-in', 'POST /console/sign-out', 'POST /console/keys', 'POST /console/keys/{id}/rotate', 'POST /console/keys/{id}/revoke'] as const;

/** The panes, in order. */
export const PANES: Pane[] = [keysPane];

export function consoleRoutes(app: Hono<any>, rt: Runtime): void {
  /** The admin API, in-process, with the deployment's admin credential. */
  const adminApi = (credential: string) => async (method: string, path: string, body?: unknown) => {
    const res = await app.request(path, { method, headers: { authorization: `Bearer ${credential}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  const session = async (c: Context, id: Identity): Promise<Session | undefined> => {
    const cookie = getCookie(c, COOKIE);
    return cookie ? ((await id.store.get<Session>(K.consoleSession(sha(cookie)))) ?? undefined) : undefined;
  };

  const signInPage = (c: Context, status: number, notice = '') =>
    page(c, status, 'Operator console', `${notice}<p>Sign in with the admin credential (<code>ADMIN_TOKEN</code>; <code>npm start</code> prints it).</p><form id="console-sign-in" method="post" action="/console/sign-in"><label for="credential">Admin credential</label><input id="credential" name="credential" type="password" autocomplete="current-password" required><div class="actions"><button type="submit">Sign in</button></div></form>`);

  async function dashboard(c: Context, id: Identity, s: Session, notice = '', status = 200): Promise<Response> {
    const credential = await adminCredential(id);
    if (!credential) return signInPage(c, 503, '<p class="notice bad">This deployment has no admin credential (ADMIN_TOKEN or ADMIN_TOKEN_PARAMETER).</p>');
    const ctx: PaneContext = { admin: adminApi(credential), csrf: s.csrf };
    const panes = await Promise.all(PANES.map(async (p) => `<section aria-labelledby="pane-${esc(p.id)}"><h2 id="pane-${esc(p.id)}">${esc(p.title)}</h2>${await p.render(ctx)}</section>`));
    const nav = `<nav class="tabs" aria-label="Panes">${PANES.map((p) => `<a href="#pane-${esc(p.id)}">${esc(p.title)}</a>`).join('')}</nav>`;
    const signOut = `<form method="post" action="/console/sign-out">${csrfField(s.csrf)}<button type="submit" class="secondary">Sign out</button></form>`;
    return page(c, status, 'Operator console', `${nav}${notice}${panes.join('')}${signOut}`, { wide: true });
  }

  /** A POST from a signed-in console page: same origin, the session's CSRF token. */
  async function guarded(c: Context, work: (id: Identity, s: Session, form: Record<string, string | string[]>, admin: PaneContext['admin']) => Promise<Response>): Promise<Response> {
    const id = await identityOf(rt);
    const s = await session(c, id);
    if (!s) return signInPage(c, 401, '<p class="notice bad" id="signed-out">Your console session ended; sign in again.</p>');
    const origin = c.req.header('origin');
    const form = (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, string | string[]>;
    const token = typeof form.csrf === 'string' ? form.csrf : '';
    // Browsers say where a request comes from (Sec-Fetch-Site); the pages send no referrer, so a form's Origin is "null".
    const site = c.req.header('sec-fetch-site');
    const sameOrigin = site !== undefined ? site === 'same-origin' : !origin || origin === 'null' || origin === new URL(c.req.url).origin || origin === new URL(id.baseOr(c.req.url)).origin;
    if (!sameOrigin || token.length !== s.csrf.length || !timingSafeEqual(Buffer.from(token), Buffer.from(s.csrf))) {
      log('warn', 'console request refused', { reason: sameOrigin ? 'csrf' : 'origin' });
      return page(c, 403, 'Refused', '<p class="notice bad" id="refused">This form did not come from your console page. Open <a href="/console">the console</a> and try again.</p>');
    }
    const credential = await adminCredential(id);
    if (!credential) return signInPage(c, 503);
    return work(id, s, form, adminApi(credential));
  }

  const outcome = (res: { status: number; body: any }, done: string) =>
    res.status < 300 ? `<p class="notice ok" role="status">${done}</p>` : `<p class="notice bad" role="alert" id="refused">${esc(res.body?.error?.message ?? `The admin API answered ${res.status}.`)}</p>`;
  /** A new key, shown this once. */
  const shownOnce = (res: { status: number; body: any }, what: string) =>
    res.status < 300
      ? `<div class="notice ok" role="status"><p>${esc(what)} <code>${esc(res.body.data.id)}</code> for tenant ${esc(res.body.data.tenant)}. Copy the key now; it is not shown again:</p><p><code id="new-key">${esc(res.body.data.key)}</code></p></div>`
      : outcome(res, '');

  app.get('/console', async (c) => {
    const id = await identityOf(rt);
    const s = await session(c, id);
    return s ? dashboard(c, id, s) : signInPage(c, 200);
  });

  app.post('/console/sign-in', async (c) => {
    const id = await identityOf(rt);
    const expected = await adminCredential(id);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const presented = typeof form.credential === 'string' ? form.credential.trim() : '';
    if (!expected || !presented || presented.length > 512 || !isAdminCredential(presented, expected)) {
      log('warn', 'console sign-in refused', {});
      return signInPage(c, 401, '<p class="notice bad" id="refused">That is not the admin credential.</p>');
    }
    const token = randomBytes(24).toString('base64url');
    const s: Session = { csrf: randomBytes(24).toString('base64url') };
    await id.store.put(K.consoleSession(sha(token)), s, SESSION_SECONDS);
    setCookie(c, COOKIE, token, { path: '/console', httpOnly: true, sameSite: 'Strict', secure: id.baseOr(c.req.url).startsWith('https:'), maxAge: SESSION_SECONDS });
    log('info', 'console signed in', {});
    return c.redirect('/console', 303);
  });

  app.post('/console/sign-out', (c) =>
    guarded(c, async (id) => {
      await id.store.delete?.(K.consoleSession(sha(getCookie(c, COOKIE)!)));
      deleteCookie(c, COOKIE, { path: '/console' });
      return c.redirect('/console', 303);
    }),
  );

  app.post('/console/keys', (c) =>
    guarded(c, async (id, s, form, admin) => {
      const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
      const toolsets = list(form.toolsets);
      const policy = { platforms: list(form.platforms), ...(toolsets.length ? { toolsets } : {}), ...(form.read_only === 'true' ? { read_only: true } : {}) };
      const res = await admin('POST', '/v1/admin/keys', { tenant: form.tenant, ...(form.name ? { name: form.name } : {}), policy });
      return dashboard(c, id, s, shownOnce(res, 'Created key'), res.status < 300 ? 200 : 400);
    }),
  );

  app.post('/console/keys/:id/rotate', (c) =>
    guarded(c, async (id, s, _form, admin) => {
      const res = await admin('POST', `/v1/admin/keys/${encodeURIComponent(c.req.param('id')!)}/rotate`);
      return dashboard(c, id, s, shownOnce(res, 'Rotated: the new key is'), res.status < 300 ? 200 : 400);
    }),
  );

  app.post('/console/keys/:id/revoke', (c) =>
    guarded(c, async (id, s, _form, admin) => {
      const res = await admin('DELETE', `/v1/admin/keys/${encodeURIComponent(c.req.param('id')!)}`);
      return dashboard(c, id, s, outcome(res, `Revoked <code>${esc(c.req.param('id')!)}</code>: it is refused at once here and within 30 s everywhere.`), res.status < 300 ? 200 : 400);
    }),
  );
}
