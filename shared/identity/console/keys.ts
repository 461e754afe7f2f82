import type { KeyView } from '../keys';
import { esc } from '../pages/layout';
import { vendorName } from '../providers';
import { actionButton, count, csrfField, failed, notice, table, type Pane } from './pane';

/** A new key, shown this once. */
function shownOnce(res: { status: number; body: any }, what: string) {
  if (res.status >= 300) return notice(res, '');
  return { notice: `<div class="notice ok" role="status"><p>${esc(what)} <code>${esc(res.body.data.id)}</code> for tenant ${esc(res.body.data.tenant)}. Copy the key now; it is not shown again:</p><p><code id="new-key">${esc(res.body.data.key)}</code></p></div>`, ok: true };
}

const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v ? [v] : []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);

/** Service keys: every tenant's, with create (a policy), rotate and revoke. */
export const keysPane: Pane = {
  id: 'keys',
  title: 'Service keys',
  async render({ admin, csrf, platforms }) {
    const listed = await admin('GET', '/v1/admin/keys');
    if (listed.status >= 300) return failed(listed);
    const keys = (listed.body?.data?.keys ?? []) as KeyView[];
    const rows = keys.map((k) => {
      const p = k.policy;
      const policy = [p.platforms.join(', '), p.toolsets ? `toolsets ${p.toolsets.join(', ')}` : 'all toolsets', p.read_only ? 'read-only' : 'reads and writes', ...(p.approval && p.approval !== 'none' ? [`approval: ${[p.approval].flat().join(', ')}`] : []), ...(p.approver ? ['approver'] : []), ...(p.admin ? ['console admin'] : [])].join(' · ');
      const actions = k.status === 'active' ? `<div class="actions">${actionButton(csrf, `/console/keys/${k.id}/rotate`, 'Rotate')}${actionButton(csrf, `/console/keys/${k.id}/revoke`, 'Revoke', 'danger')}</div>` : '';
      return [`<code>${esc(k.id)}</code>${k.name ? `<br>${esc(k.name)}` : ''}`, esc(k.tenant), esc(policy), `${esc(k.status)}${k.expires_at ? `<br><span class="muted">until ${esc(k.expires_at.slice(0, 10))}</span>` : ''}`, actions];
    });
    const choices = [...platforms.keys()].map((p) => `<label class="choice"><input type="checkbox" name="platforms" value="${esc(p)}"><span>${esc(p)} <span class="what">${esc(vendorName(platforms, p))}</span></span></label>`).join('');
    const create = `<form id="create-key" method="post" action="/console/keys">${csrfField(csrf)}<label for="tenant">Tenant</label><input id="tenant" name="tenant" required placeholder="acme"><label for="name">Name <span class="muted">(optional)</span></label><input id="name" name="name" placeholder="nightly sync"><fieldset><legend>Platforms</legend>${choices}</fieldset><label for="toolsets">Toolsets <span class="muted">(comma-separated; empty: all)</span></label><input id="toolsets" name="toolsets" placeholder="records, deals"><label class="switch"><input type="checkbox" name="read_only" value="true"><span><strong>Read-only</strong><span class="what">Only tools that read.</span></span></label><label class="switch"><input type="checkbox" name="admin" value="true"><span><strong>Console admin</strong><span class="what">The key may sign in to this console (as the admin credential does); what it does here is audited under its id.</span></span></label><div class="actions"><button type="submit">Create key</button></div></form>`;
    return `${table(count(keys.length, 'key'), ['Key', 'Tenant', 'Policy', 'Status', 'Actions'], rows, 'No service keys yet.')}<h3>New key</h3>${create}`;
  },
  actions: [
    {
      path: '',
      async run({ admin }, form) {
        const toolsets = list(form.toolsets);
        const policy = { platforms: list(form.platforms), ...(toolsets.length ? { toolsets } : {}), ...(form.read_only === 'true' ? { read_only: true } : {}), ...(form.admin === 'true' ? { admin: true } : {}) };
        return shownOnce(await admin('POST', '/v1/admin/keys', { tenant: form.tenant, ...(form.name ? { name: form.name } : {}), policy }), 'Created key');
      },
    },
    { path: ':id/rotate', run: async ({ admin }, _f, { id }) => shownOnce(await admin('POST', `/v1/admin/keys/${encodeURIComponent(id!)}/rotate`), 'Rotated: the new key is') },
    {
      path: ':id/revoke',
      run: async ({ admin }, _f, { id }) => notice(await admin('DELETE', `/v1/admin/keys/${encodeURIComponent(id!)}`), `Revoked <code>${esc(id!)}</code>: it is refused at once here and within 30 s everywhere.`),
    },
  ],
};
