import { esc } from '../pages/layout';
import { count, failed, nextPage, qs, table, when, type Pane } from './pane';

interface Listed {
  subscription_id: string;
  tenant: string;
  platform: string;
  status: string;
  watch: Record<string, unknown>;
  created_at: string;
  key_id?: string;
  connection_id: string;
  unacknowledged: number;
}

/** Event subscriptions of every tenant, with how many events wait unacknowledged in each inbox. */
export const subscriptionsPane: Pane = {
  id: 'subscriptions',
  title: 'Event subscriptions',
  async render({ admin, query }) {
    const res = await admin('GET', `/v1/admin/subscriptions${qs({ cursor: query.cursor })}`);
    if (res.status >= 300) return failed(res);
    const list = (res.body.data.subscriptions ?? []) as Listed[];
    const rows = list.map((s) => [
      `<code>${esc(s.subscription_id)}</code>`,
      `${esc(s.tenant)}<br><span class="muted">${s.key_id ? `key ${esc(s.key_id)}` : 'connected account'}</span>`,
      esc(s.platform),
      `<code>${esc(JSON.stringify(s.watch).slice(0, 120))}</code>`,
      `<span class="badge${s.status === 'active' ? ' ok' : ''}">${esc(s.status)}</span><br><span class="muted">since ${when(s.created_at)}</span>`,
      `<strong>${s.unacknowledged}</strong>`,
    ]);
    return `${table(count(list.length, 'subscription'), ['Subscription', 'Tenant', 'Platform', 'Watches', 'Status', 'Unacknowledged'], rows, 'No event subscriptions yet.')}${nextPage('subscriptions', query, res.body.data.next_cursor)}`;
  },
};
