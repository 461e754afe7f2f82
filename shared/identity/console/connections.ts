import type { ConnectionView } from '../connections';
import { esc } from '../pages/layout';
import { accountLabel } from '../pages/parts';
import { actionButton, count, failed, nextPage, notice, qs, table, when, type Pane } from './pane';

type Listed = ConnectionView & { vendor: string; needs_reauth: boolean };

const statusBadge = (c: Listed) =>
  c.status === 'active' ? '<span class="badge ok">active</span>' : c.needs_reauth ? '<span class="badge">needs reauth</span>' : `<span class="badge">${esc(c.status)}</span>`;

/** Connected accounts of every tenant: status, the vendor's account, a reconnect link where the end user must sign in again, delete. */
export const connectionsPane: Pane = {
  id: 'connections',
  title: 'Connections',
  async render({ admin, csrf, query, platforms }) {
    const res = await admin('GET', `/v1/admin/connections${qs({ cursor: query.cursor })}`);
    if (res.status >= 300) return failed(res);
    const list = (res.body.data.connections ?? []) as Listed[];
    const rows = list.map((c) => {
      const at = `/console/connections/${encodeURIComponent(c.tenant)}/${c.id}`;
      const reconnect = c.status !== 'active' ? actionButton(csrf, `${at}/reconnect`, c.needs_reauth ? 'Reconnect link' : 'Connect link') : '';
      return [
        `<code>${esc(c.id)}</code><br><span class="muted">end user ${esc(c.end_user)}</span>`,
        esc(c.tenant),
        esc(accountLabel(platforms, c)),
        `${statusBadge(c)}<br><span class="muted">since ${when(c.updated_at)}</span>`,
        `<div class="actions">${reconnect}${actionButton(csrf, `${at}/delete`, 'Delete', 'danger')}</div>`,
      ];
    });
    return `${table(count(list.length, 'connection'), ['Connection', 'Tenant', 'Account', 'Status', 'Actions'], rows, 'No connected accounts yet.')}${nextPage('connections', query, res.body.data.next_cursor)}<p class="muted">A connection marked "needs reauth" was refused by its vendor: send its end user a reconnect link.</p>`;
  },
  actions: [
    {
      path: ':tenant/:id/reconnect',
      async run({ admin }, _f, { tenant, id }) {
        const res = await admin('POST', `/v1/admin/connections/${encodeURIComponent(tenant!)}/${encodeURIComponent(id!)}/reconnect`);
        if (res.status >= 300) return notice(res, '');
        const url = String(res.body.data.connect_url);
        return { notice: `<div class="notice ok" role="status"><p>Send this link to the end user of <code>${esc(id!)}</code>; it works once, until ${when(res.body.data.expires_at)}:</p><p><a id="connect-link" href="${esc(url)}">${esc(url)}</a></p></div>`, ok: true };
      },
    },
    {
      path: ':tenant/:id/delete',
      run: async ({ admin }, _f, { tenant, id }) => notice(await admin('DELETE', `/v1/admin/connections/${encodeURIComponent(tenant!)}/${encodeURIComponent(id!)}`), `Deleted <code>${esc(id!)}</code> and its stored credential.`),
    },
  ],
};
