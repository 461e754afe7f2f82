import type { ConnectionView } from '../connections';
import { platformOfResource } from '../mcp-oauth/resource';
import { esc } from '../pages/layout';
import { accountLabel } from '../pages/parts';
import type { PlatformNames } from '../providers';
import { actionButton, count, failed, nextPage, notice, qs, table, when, type Pane } from './pane';

interface Client {
  client_id: string;
  client_name: string;
  kind: string;
  redirect_uris?: string[];
  sign_ins: number;
}

interface SignIn {
  id: string;
  tenant: string;
  key_id?: string;
  connection: string;
  /** The endpoint signed in at, and every endpoint the sign-in covers when more than that one. */
  resource: string;
  resources?: string[];
  /** The account on each platform it covers, by platform, when more than one. */
  accounts?: Record<string, string>;
  client_name: string;
  platforms: string[];
  toolsets?: string[];
  read_only: boolean;
  created_at: string;
  refreshed_at: string;
  status: string;
}

const hostOf = (uri: string) => {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
};

const pathOf = (resource: string) => {
  try {
    return new URL(resource).pathname;
  } catch {
    return resource;
  }
};

/**
 * What a sign-in covers: each endpoint by its path, with the account it acts through there — a
 * platform's endpoint its account on that platform, the combined endpoint every account of the
 * sign-in — named as its vendor knows it where the connection is listed, else by its id.
 */
function covers(names: PlatformNames, g: SignIn, connection: (tenant: string, id: string) => ConnectionView | undefined): string {
  const primary = connection(g.tenant, g.connection);
  const accounts: [string | undefined, string][] = g.accounts ? Object.entries(g.accounts) : [[primary?.platform ?? platformOfResource(g.resource), g.connection]];
  const label = (id: string) => {
    const found = connection(g.tenant, id);
    return `${found ? `${esc(accountLabel(names, found))} ` : ''}<code>${esc(id)}</code>`;
  };
  const lines = (g.resources ?? [g.resource]).map((r) => {
    const platform = platformOfResource(r);
    const through = platform === undefined ? accounts.map(([, id]) => id) : accounts.filter(([p]) => p === platform).map(([, id]) => id);
    return `<code>${esc(pathOf(r))}</code><br><span class="muted">${through.length ? through.map(label).join(', ') : 'no account of this sign-in'}</span>`;
  });
  return `<div class="covers">${lines.join('<br>')}</div>`;
}

/** The MCP hosts that signed in through the built-in authorization server: their clients, and each sign-in (grant) with revoke. */
export const oauthPane: Pane = {
  id: 'oauth',
  title: 'OAuth clients and grants',
  async render({ admin, csrf, query, platforms }) {
    // The connections name the accounts a sign-in acts through (one listing page: beyond it, by id).
    const [clients, grants, connections] = await Promise.all([admin('GET', '/v1/admin/oauth/clients?limit=100'), admin('GET', `/v1/admin/oauth/grants${qs({ cursor: query.cursor })}`), admin('GET', '/v1/admin/connections?limit=500')]);
    if (clients.status >= 300) return failed(clients);
    if (grants.status >= 300) return failed(grants);
    const cl = (clients.body.data.clients ?? []) as Client[];
    const gr = (grants.body.data.grants ?? []) as SignIn[];
    const byId = new Map(((connections.status < 300 ? connections.body.data.connections : undefined) ?? ([] as ConnectionView[])).map((c: ConnectionView) => [`${c.tenant}/${c.id}`, c]));
    const connection = (tenant: string, id: string) => byId.get(`${tenant}/${id}`) as ConnectionView | undefined;
    const clientRows = cl.map((c) => [`${esc(c.client_name)}<br><code>${esc(c.client_id.length > 40 ? `${c.client_id.slice(0, 40)}…` : c.client_id)}</code>`, esc(c.kind), esc([...new Set((c.redirect_uris ?? []).map(hostOf))].join(', ') || '—'), String(c.sign_ins)]);
    // Six columns, so that a row reads at 1280 px without words broken: the client with its grant id, and the status with its action.
    const grantRows = gr.map((g) => [
      `${esc(g.client_name)}<br><code>${esc(g.id.slice(0, 16))}…</code>`,
      `${esc(g.tenant)}<br><span class="muted">${g.key_id ? `signed in with key ${esc(g.key_id)}` : 'signed in with its account'}</span>`,
      covers(platforms, g, connection),
      `${esc(g.platforms.join(', '))}${g.toolsets ? `: ${esc(g.toolsets.join(', '))}` : ''}${g.read_only ? ' · read-only' : ''}`,
      `${when(g.created_at)}<br><span class="muted">refreshed ${when(g.refreshed_at)}</span>`,
      g.status === 'active' ? `<span class="badge ok">active</span><br>${actionButton(csrf, `/console/oauth/grants/${g.id}/revoke`, 'Revoke', 'danger')}` : `<span class="badge">${esc(g.status)}</span>`,
    ]);
    return `<h3>Clients</h3>${table(count(cl.length, 'client'), ['Client', 'Kind', 'Redirects to', 'Sign-ins'], clientRows, 'No MCP host has registered or signed in yet.')}<h3>Grants</h3>${table(count(gr.length, 'grant'), ['Sign-in', 'Tenant', 'Covers', 'Shares', 'Since', 'Status'], grantRows, 'No sign-ins yet.')}${nextPage('oauth', query, grants.body.data.next_cursor)}`;
  },
  actions: [
    {
      path: 'grants/:id/revoke',
      run: async ({ admin }, _f, { id }) => notice(await admin('DELETE', `/v1/admin/oauth/grants/${encodeURIComponent(id!)}`), `Revoked the grant: the host's tokens are refused at once here and within 30 s everywhere; it must sign in again.`),
    },
  ],
};
