import { esc } from '../pages/layout';
import { count, failed, nextPage, qs, table, when, type Pane } from './pane';

interface Listed {
  task_id: string;
  tenant: string;
  status: string;
  status_message?: string;
  created_at: string;
  updated_at: string;
  platform?: string;
  tool?: string;
  key_id?: string;
  grant_id?: string;
}

/** MCP tasks of every tenant: status, tool where the store keeps it, when, and whose. */
export const tasksPane: Pane = {
  id: 'tasks',
  title: 'MCP tasks',
  async render({ admin, query }) {
    const res = await admin('GET', `/v1/admin/tasks${qs({ cursor: query.cursor, status: query.status })}`);
    if (res.status >= 300) return failed(res);
    const list = (res.body.data.tasks ?? []) as Listed[];
    const rows = list.map((t) => [
      `<code>${esc(t.task_id.slice(0, 8))}…</code>`,
      `${esc(t.tenant)}<br><span class="muted">${t.key_id ? `key ${esc(t.key_id)}` : ''}${t.grant_id ? `${t.key_id ? ' · ' : ''}sign-in ${esc(t.grant_id.slice(0, 12))}…` : ''}</span>`,
      t.tool ? `${esc(t.platform ?? '')}/${esc(t.tool)}` : '<span class="muted">—</span>',
      `<span class="badge${t.status === 'completed' ? ' ok' : ''}">${esc(t.status)}</span>${t.status_message ? `<br><span class="muted">${esc(t.status_message.slice(0, 120))}</span>` : ''}`,
      when(t.created_at),
      when(t.updated_at),
    ]);
    return `${table(count(list.length, 'task'), ['Task', 'Owner', 'Tool', 'Status', 'Created', 'Updated'], rows, 'No MCP tasks in their time to live.')}${nextPage('tasks', query, res.body.data.next_cursor)}`;
  },
};
