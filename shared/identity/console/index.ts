import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { log } from '../../core/log';
import type { Runtime } from '../../core/runtime';
import { ACTOR_HEADER, adminCredential, isAdminCredential } from '../admin';
import type { Identity } from '../identity';
import { identityOf } from '../index';
import { isServiceKey } from '../keys';
import { esc, page } from '../pages/layout';
import { K } from '../records';
import { approvalsPane } from './approvals';
import { auditPane } from './audit';
import { connectionsPane } from './connections';
import { keysPane } from './keys';
import { oauthPane } from './oauth';
import { csrfField, type AdminApi, type Pane, type PaneContext } from './pane';
import { subscriptionsPane } from './subscriptions';
import { tasksPane } from './tasks';

/**
 * The operator console (`/console`): sign in with the admin credential, or with a service key whose
 * policy says `admin: true`, then run the service from its panes. It is a client of the admin API
 * only — every change is a request to `/v1/admin/…` made in-process with the admin credential and
 * the person's identity (ACTOR_HEADER), so the API's checks, logs and audit trail are the
 * console's too. A session is a random id in an HttpOnly, SameSite=Strict cookie, kept in the
 * Store as its hash; every form that changes something carries the session's CSRF token and a
 * cross-origin POST is refused. One pane per page (`/console/<pane>`), one file per pane.
 */

const COOKIE = 'tes_console';
const SESSION_SECONDS = 8 * 3600;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface Session {
  csrf: string;
  /** Who signed in: "admin" (the credential) or `key:<id>` (an admin key, checked again on every request). */
  actor?: string;
}

/** The panes, in order: the first is /console's. */
export const PANES: Pane[] = [keysPane, connectionsPane, oauthPane, subscriptionsPane, tasksPane, approvalsPane, auditPane];

/** A pane action's route: `/console/<pane>` (the pane's own form) or `/console/<pane>/<path>`. */
const actionRoute = (pane: Pane, path: string) => `/console/${pane.id}${path ? `/${path}` : ''}`;

/** The console's routes, as serverless.yml routes them to the identity function (with the stylesheet's), in OpenAPI path form. */
export const PAGE_ROUTES: readonly string[] = [
  'GET /pages/style.css',
  'GET /console',
  'GET /console/{pane}',
  'POST /console/sign-in',
  'POST /console/sign-out',
  ...PANES.flatMap((p) => (p.actions ?? []).map((a) => `POST ${actionRoute(p, a.path).replace(/:([a-z_]+)/g, '{$1}')}`)),
];

export function consoleRoutes(app: Hono<any>, rt: Runtime): void {
  /** The admin API, in-process, with the deployment's admin credential, as `actor`. */
  const adminApi = (credential: string, actor: string): AdminApi => async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${credential}`, [ACTOR_HEADER]: actor, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const res = await app.request(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };

  /** The session of the request's cookie; one of an admin key that is no longer active, or no longer admin, is over. */
  const session = async (c: Context, id: Identity): Promise<Session | undefined> => {
    const cookie = getCookie(c, COOKIE);
    const s = cookie ? ((await id.store.get<Session>(K.consoleSession(sha(cookie)))) ?? undefined) : undefined;
    if (s?.actor?.startsWith('key:')) {
      const key = await id.keys.get(s.actor.slice(4));
      if (key?.status !== 'active' || key.policy.admin !== true) return undefined;
    }
    return s;
  };

  const signInPage = (c: Context, status: number, notice = '') =>
    page(c, status, 'Operator console', `${notice}<p>Sign in with the admin credential (<code>ADMIN_TOKEN</code>; <code>npm start</code> prints it), or with a service key whose policy says <code>"admin": true</code>.</p><form id="console-sign-in" method="post" action="/console/sign-in"><label for="credential">Admin credential or admin key</label><input id="credential" name="credential" type="password" autocomplete="current-password" required><div class="actions"><button type="submit">Sign in</button></div></form>`);

  async function dashboard(c: Context, id: Identity, s: Session, pane: Pane, notice = '', status = 200): Promise<Response> {
    const credential = await adminCredential(id);
    if (!credential) return signInPage(c, 503, '<p class="notice bad">This deployment has no admin credential (ADMIN_TOKEN or ADMIN_TOKEN_PARAMETER): the console reaches the admin API with it.</p>');
    const query = Object.fromEntries(Object.entries(c.req.query()).map(([k, v]) => [k, String(v).slice(0, 200)]));
    const ctx: PaneContext = { admin: adminApi(credential, s.actor ?? 'admin'), csrf: s.csrf, query: c.req.method === 'GET' ? query : {}, platforms: id.platforms };
    const body = await pane.render(ctx);
    const nav = `<nav class="tabs" aria-label="Panes">${PANES.map((p) => `<a href="/console/${esc(p.id)}"${p === pane ? ' aria-current="page"' : ''}>${esc(p.title)}</a>`).join('')}</nav>`;
    const who = `<p class="muted">Signed in as ${s.actor?.startsWith('key:') ? `admin key <code>${esc(s.actor.slice(4))}</code>` : 'the admin credential'}.</p>`;
    const signOut = `<form method="post" action="/console/sign-out">${csrfField(s.csrf)}<button type="submit" class="secondary">Sign out</button></form>`;
    return page(c, status, 'Operator console', `${nav}${who}${notice}<section aria-labelledby="pane-${esc(pane.id)}"><h2 id="pane-${esc(pane.id)}">${esc(pane.title)}</h2>${body}</section>${signOut}`, { wide: true });
  }

  /** A POST from a signed-in console page: same origin, the session's CSRF token. */
  async function guarded(c: Context, work: (id: Identity, s: Session, form: Record<string, string | string[]>, admin: AdminApi) => Promise<Response>): Promise<Response> {
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
    return work(id, s, form, adminApi(credential, s.actor ?? 'admin'));
  }

  const show = async (c: Context, pane: Pane | undefined) => {
    const id = await identityOf(rt);
    const s = await session(c, id);
    if (!s) return signInPage(c, 200);
    if (!pane) return page(c, 404, 'No such pane', `<p class="notice bad">The console has no pane "${esc(c.req.param('pane') ?? '')}".</p><p><a href="/console">Open the console</a>.</p>`);
    return dashboard(c, id, s, pane);
  };
  app.get('/console', (c) => show(c, PANES[0]));
  app.get('/console/:pane', (c) => show(c, PANES.find((p) => p.id === c.req.param('pane'))));

  app.post('/console/sign-in', async (c) => {
    const id = await identityOf(rt);
    const expected = await adminCredential(id);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const presented = typeof form.credential === 'string' ? form.credential.trim() : '';
    let actor: string | undefined;
    if (presented && presented.length <= 512) {
      if (isServiceKey(presented)) {
        // Only a key whose policy says admin: never any other key of any tenant.
        const key = await id.keys.authenticate(presented).catch(() => undefined);
        if (key?.policy.admin === true) actor = `key:${key.id}`;
      } else if (expected && isAdminCredential(presented, expected)) actor = 'admin';
    }
    if (!actor) {
      log('warn', 'console sign-in refused', {});
      return signInPage(c, 401, '<p class="notice bad" id="refused">That is not the admin credential, nor a service key whose policy says "admin": true.</p>');
    }
    const token = randomBytes(24).toString('base64url');
    const s: Session = { csrf: randomBytes(24).toString('base64url'), actor };
    await id.store.put(K.consoleSession(sha(token)), s, SESSION_SECONDS);
    setCookie(c, COOKIE, token, { path: '/console', httpOnly: true, sameSite: 'Strict', secure: id.baseOr(c.req.url).startsWith('https:'), maxAge: SESSION_SECONDS });
    log('info', 'console signed in', { actor });
    return c.redirect('/console', 303);
  });

  app.post('/console/sign-out', (c) =>
    guarded(c, async (id) => {
      await id.store.delete?.(K.consoleSession(sha(getCookie(c, COOKIE)!)));
      deleteCookie(c, COOKIE, { path: '/console' });
      return c.redirect('/console', 303);
    }),
  );

  for (const pane of PANES) {
    for (const action of pane.actions ?? []) {
      app.post(actionRoute(pane, action.path), (c) =>
        guarded(c, async (id, s, form, admin) => {
          const done = await action.run({ admin, csrf: s.csrf, query: {}, platforms: id.platforms }, form, c.req.param() as Record<string, string>);
          return dashboard(c, id, s, pane, done.notice, done.ok ? 200 : 400);
        }),
      );
    }
  }
}
