import type { AuditRecord } from '../../core/audit';
import { esc } from '../pages/layout';
import { auditChart } from './audit-chart';
import { count, failed, nextPage, qs, table, tenantsOf, when, type Pane } from './pane';

const FILTERS = ['tenant', 'key_id', 'tool', 'outcome', 'from', 'to', 'limit'] as const;

/** A datetime-local value ("2026-12-01T14:00") as the admin API's ISO time (UTC). */
const iso = (v: string | undefined) => (v ? (/Z$|[+-]\d\d:\d\d$/.test(v) ? v : `${v}${v.length === 16 ? ':00' : ''}Z`) : undefined);

/** The audit trail: filtered (tenant, key, tool, outcome, time range), paged, with a chart of calls per tool and outcome. */
export const auditPane: Pane = {
  id: 'audit',
  title: 'Audit trail',
  async render({ admin, query }) {
    const tenants = await tenantsOf(admin);
    const tenant = query.tenant || tenants[0] || '-';
    const filters = { tenant, key_id: query.key_id, tool: query.tool, outcome: query.outcome, from: iso(query.from), to: iso(query.to) };
    const [res, sample] = await Promise.all([admin('GET', `/v1/admin/audit${qs({ ...filters, cursor: query.cursor, limit: query.limit })}`), admin('GET', `/v1/admin/audit${qs({ ...filters, limit: '500' })}`)]);
    const options = [...new Set([...tenants, '-'])].map((t) => `<option value="${esc(t)}"${t === tenant ? ' selected' : ''}>${t === '-' ? '- (no tenant: vendor keys, refused credentials)' : esc(t)}</option>`).join('');
    const field = (name: string, label: string, type = 'text', placeholder = '') => `<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${esc(query[name] ?? '')}"${placeholder ? ` placeholder="${esc(placeholder)}"` : ''}></div>`;
    const form = `<form id="audit-filter" method="get" action="/console/audit" class="filters"><div><label for="f-tenant">Tenant</label><select id="f-tenant" name="tenant">${options}</select></div>${field('key_id', 'Key', 'text', 'key_…')}${field('tool', 'Tool', 'text', 'createDeal')}${field('outcome', 'Outcome', 'text', 'OK, FORBIDDEN, approved…')}${field('from', 'From (UTC)', 'datetime-local')}${field('to', 'To (UTC)', 'datetime-local')}<div class="actions"><button type="submit">Filter</button><a class="button secondary" href="/console/audit">Clear</a></div></form>`;
    if (res.status >= 300) return `${form}${failed(res)}`;
    const records = (res.body.data.records ?? []) as AuditRecord[];
    const rows = records.map((r) => [
      when(r.time),
      `${r.key_id ? `<code>${esc(r.key_id)}</code>` : ''}${r.by && r.by !== `key:${r.key_id}` ? `${r.key_id ? '<br>' : ''}<span class="muted">by ${esc(r.by)}</span>` : ''}${!r.key_id && !r.by ? '—' : ''}`,
      esc(r.surface),
      `${r.platform && r.platform !== 'admin' ? `${esc(r.platform)}/` : ''}${esc(r.tool)}${r.access ? `<br><span class="muted">${esc(r.access)}${r.dry_run ? ', dry run' : ''}</span>` : ''}`,
      `${r.outcome === 'OK' || r.outcome === 'approved' || r.outcome === 'executed' ? `<span class="badge ok">${esc(r.outcome)}</span>` : `<span class="badge">${esc(r.outcome)}</span>`}${r.status ? ` <span class="muted">${r.status}</span>` : ''}`,
      r.duration_ms !== undefined ? `${Math.round(r.duration_ms)} ms` : '',
    ]);
    const chart = sample.status < 300 ? auditChart((sample.body.data.records ?? []) as AuditRecord[]) : '';
    const kept = Object.fromEntries(FILTERS.map((f) => [f, query[f] ?? '']).filter(([, v]) => v));
    return `${form}${chart}${table(`${count(records.length, 'record')} of tenant ${tenant}, newest first`, ['Time (UTC)', 'Who', 'Surface', 'Tool', 'Outcome', 'Took'], rows, 'No records match.')}${nextPage('audit', { ...kept, tenant }, res.body.data.next_cursor)}`;
  },
};
