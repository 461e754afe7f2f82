import type { PlatformNames } from '../providers';
import { esc } from '../pages/layout';

/** The admin API, in-process, as the signed-in person (shared/identity/admin.ts ACTOR_HEADER). */
export type AdminApi = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** What a pane renders with. */
export interface PaneContext {
  admin: AdminApi;
  /** The session's CSRF token, for every form that changes something. */
  csrf: string;
  /** The page's query (filters, a listing's cursor). */
  query: Record<string, string>;
  /** The platforms' descriptors (vendor names, toolsets) of the identity the page is rendered for. */
  platforms: PlatformNames;
}

/**
 * A change a pane offers: a POST to `/console/<pane id>/<path>` (a Hono path, `:id` parameters)
 * carrying the session's CSRF token, done through the admin API; it answers the notice shown
 * above the pane (escaped HTML) and whether it went through.
 */
export interface PaneAction {
  path: string;
  run: (ctx: PaneContext, form: Record<string, string | string[]>, params: Record<string, string>) => Promise<{ notice: string; ok: boolean }>;
}

export interface Pane {
  id: string;
  title: string;
  render: (ctx: PaneContext) => Promise<string>;
  actions?: PaneAction[];
}

export const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

/** A button that POSTs one action (its own small form), e.g. Revoke. */
export const actionButton = (csrf: string, action: string, label: string, kind: 'secondary' | 'danger' | '' = 'secondary', extra = '') =>
  `<form method="post" action="${esc(action)}">${csrfField(csrf)}${extra}<button type="submit"${kind ? ` class="${kind}"` : ''}>${label}</button></form>`;

/** A table with a caption; `rows` are already escaped cells. On a narrow screen each row stacks as label and value (the stylesheet's table.stacks). */
export function table(caption: string, headers: string[], rows: string[][], empty: string): string {
  if (!rows.length) return `<p class="muted">${esc(empty)}</p>`;
  return `<div class="table"><table class="stacks"><caption class="muted">${esc(caption)}</caption><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((cell, i) => `<td data-label="${esc(headers[i] ?? '')}">${cell}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The admin API's answer as a notice: `done` when it went through, else its error message. */
export function notice(res: { status: number; body: any }, done: string): { notice: string; ok: boolean } {
  return res.status < 300
    ? { notice: `<p class="notice ok" role="status">${done}</p>`, ok: true }
    : { notice: `<p class="notice bad" role="alert" id="refused">${esc(res.body?.error?.message ?? `The admin API answered ${res.status}.`)}</p>`, ok: false };
}

/** A listing that failed to load, said in the pane rather than failing the page. */
export const failed = (res: { status: number; body: any }) => `<p class="notice bad" role="alert">${esc(res.body?.error?.message ?? `The admin API answered ${res.status}.`)}</p>`;

/** "Next page" of a listing (the admin API's next_cursor), keeping the page's other query parameters. */
export function nextPage(pane: string, query: Record<string, string>, cursor: string | undefined): string {
  if (!cursor) return '';
  const q = new URLSearchParams({ ...query, cursor });
  return `<p><a class="button secondary" href="/console/${esc(pane)}?${esc(q.toString())}" rel="next">Next page</a></p>`;
}

/** The query string of an admin listing: the given parameters that are set. */
export const qs = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** A short ISO time for a table: "2026-12-01 14:03". */
export const when = (iso: string | undefined) => (iso ? esc(iso.slice(0, 16).replace('T', ' ')) : '');

/** The tenants the admin API knows (service keys' and connections'), sorted. */
export async function tenantsOf(admin: AdminApi): Promise<string[]> {
  const [keys, connections] = await Promise.all([admin('GET', '/v1/admin/keys'), admin('GET', '/v1/admin/connections?limit=500')]);
  const names = [...((keys.body?.data?.keys ?? []) as { tenant: string }[]), ...((connections.body?.data?.connections ?? []) as { tenant: string }[])].map((x) => x.tenant);
  return [...new Set(names)].sort();
}
