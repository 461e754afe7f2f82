import { esc } from '../pages/layout';
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

/** The MCP hosts that signed in through the built-in authorization server: their clients, and each sign-in (grant) with revoke. */
export const oauthPane: Pane = {
  id: 'oauth',
  title: 'OAuth clients and grants',
  async render({ admin, csrf, query }) {
    const [clients, grants] = await Promise.all([admin('GET', '/v1/admin/oauth/clients?limit=100'), admin('GET', `/v1/admin/oauth/grants${qs({ cursor: query.cursor })}`)]);
    if (clients.status >= 300) return failed(clients);
    if (grants.status >= 300) return failed(grants);
    const cl = (clients.body.data.clients ?? []) as Client[];
    const gr = (grants.body.data.grants ?? []) as SignIn[];
    const clientRows = cl.map((c) => [`${esc(c.client_name)}<br><code>${esc(c.client_id.length > 40 ? `${c.client_id.slice(0, 40)}…` : c.client_id)}</code>`, esc(c.kind), esc([...new Set((c.redirect_uris ?? []).map(hostOf))].join(', ') || '—'), String(c.sign_ins)]);
    const grantRows = gr.map((g) => [
      `<code>${esc(g.id.slice(0, 16))}…</code>`,
      esc(g.client_name),
      `${esc(g.tenant)}<br><span class="muted">${g.key_id ? `key ${esc(g.key_id)}` : 'connected account'} · <code>${esc(g.connection)}</code></span>`,
      `${esc(g.platforms.join(', '))}${g.toolsets ? `: ${esc(g.toolsets.join(', '))}` : ''}${g.read_only ? ' · read-only' : ''}`,
      `${when(g.created_at)}<br><span class="muted">refreshed ${when(g.refreshed_at)}</span>`,
      g.status === 'active' ? `<span class="badge ok">active</span>` : `<span class="badge">${esc(g.status)}</span>`,
      g.status === 'active' ? actionButton(csrf, `/console/oauth/grants/${g.id}/revoke`, 'Revoke', 'danger') : '',
    ]);
    return `<h3>Clients</h3>${table(count(cl.length, 'client'), ['Client', 'Kind', 'Redirects to', 'Sign-ins'], clientRows, 'No MCP host has registered or signed in yet.')}<h3>Grants</h3>${table(count(gr.length, 'grant'), ['Grant', 'Client', 'Tenant', 'Shares', 'Since', 'Status', 'Actions'], grantRows, 'No sign-ins yet.')}${nextPage('oauth', query, grants.body.data.next_cursor)}`;
  },
  actions: [
    {
      path: 'grants/:id/revoke',
      run: async ({ admin }, _f, { id }) => notice(await admin('DELETE', `/v1/admin/oauth/grants/${encodeURIComponent(id!)}`), `Revoked the grant: the host's tokens are refused at once here and within 30 s everywhere; it must sign in again.`),
    },
  ],
};
