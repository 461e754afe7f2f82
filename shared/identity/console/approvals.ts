import type { ApprovalView } from '../approvals';
import { esc } from '../pages/layout';
import { facts } from '../pages/parts';
import { actionButton, count, notice, table, tenantsOf, when, type Pane } from './pane';

/** Held calls waiting for a person, with what each would change, to approve or reject; then the latest decisions. */
export const approvalsPane: Pane = {
  id: 'approvals',
  title: 'Approvals',
  async render({ admin, csrf }) {
    const tenants = await tenantsOf(admin);
    const lists = await Promise.all(tenants.map(async (t) => ((await admin('GET', `/v1/admin/approvals?tenant=${encodeURIComponent(t)}&limit=50`)).body?.data?.approvals ?? []) as ApprovalView[]));
    const all = lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
    const pending = all.filter((a) => a.status === 'pending');
    const cards = await Promise.all(pending.map(async (a) => {
      const one = await admin('GET', `/v1/admin/approvals/${encodeURIComponent(a.id)}`);
      const preview = typeof one.body?.data?.preview === 'string' ? one.body.data.preview : '';
      return `<article class="card inset" aria-labelledby="apr-${esc(a.id)}"><h3 id="apr-${esc(a.id)}">${esc(a.platform)}/${esc(a.tool)}</h3>${facts([
        ['Tenant', esc(a.tenant)],
        ['Asked by key', `<code>${esc(a.key_id)}</code>`],
        ['Connection', `<code>${esc(a.connection)}</code>`],
        ['Expires', when(a.expires_at)],
      ])}<p class="muted">What it would change:</p><pre class="preview">${esc(preview)}</pre><div class="actions">${actionButton(csrf, `/console/approvals/${a.id}/approve`, 'Approve', '')}${actionButton(csrf, `/console/approvals/${a.id}/reject`, 'Reject', 'danger')}</div></article>`;
    }));
    const decided = all.filter((a) => a.status !== 'pending').slice(0, 20);
    const rows = decided.map((a) => [`<code>${esc(a.id.slice(0, 12))}…</code>`, esc(a.tenant), `${esc(a.platform)}/${esc(a.tool)}`, esc(a.status), esc(a.decided_by ?? '—'), when(a.decided_at ?? a.created_at)]);
    return `<h3>Waiting (${pending.length})</h3>${cards.join('') || '<p class="muted" id="no-pending">Nothing waits for a decision.</p>'}<h3>Latest</h3>${table(count(decided.length, 'request'), ['Approval', 'Tenant', 'Tool', 'Status', 'Decided by', 'When'], rows, 'No decided requests yet.')}`;
  },
  actions: (['approve', 'reject'] as const).map((decision) => ({
    path: `:id/${decision}`,
    run: async ({ admin }, _f, { id }) =>
      notice(await admin('POST', `/v1/admin/approvals/${encodeURIComponent(id!)}/${decision}`), decision === 'approve' ? `Approved <code>${esc(id!)}</code>: the agent may now run the call once, unchanged.` : `Rejected <code>${esc(id!)}</code>: the call will not run.`),
  })),
};
