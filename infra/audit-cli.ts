import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/core/config';
import { ToolError } from '../shared/core/errors';
import { queryAudit, type AuditQuery, type AuditRecord } from '../shared/core/audit';
import { createStore, type Store } from '../shared/store';

const USAGE = `The audit trail (README "Approvals and the audit trail").

  npm run audit -- --tenant <t> [--key <key id>] [--connection <con_…>] [--tool <name>] [--outcome OK|FORBIDDEN|…]
                   [--from 2026-12-01T00:00:00Z] [--to …] [--limit 50] [--all] [--json]

Newest first; --all follows the cursor to the end of the range; --json prints JSON lines (one
record a line) instead of a table. Against the running local server through the admin API: set
TES_URL and ADMIN_TOKEN. Against a deployed table directly: STORE=dynamodb TABLE_NAME=<table>.`;

/** One page of the trail: through the admin API, or from a store. */
type AuditSource = (q: AuditQuery) => Promise<{ records: AuditRecord[]; next_cursor?: string }>;

/** GET /v1/admin/audit of a running service as an AuditSource. */
export function httpAudit(base: string, adminToken: string, fetcher: typeof fetch = fetch): AuditSource {
  return async (q) => {
    const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await fetcher(`${base.replace(/\/$/, '')}/v1/admin/audit?${params}`, { headers: { authorization: `Bearer ${adminToken}` } });
    const out = (await res.json()) as { success: boolean; data?: any; error?: { message: string } };
    if (!out.success) throw new Error(out.error?.message ?? `HTTP ${res.status}`);
    return out.data;
  };
}

const COLUMNS: [keyof AuditRecord, number][] = [
  ['time', 24],
  ['kind', 8],
  ['surface', 13],
  ['key_id', 20],
  ['connection_id', 28],
  ['tool', 30],
  ['access', 6],
  ['outcome', 20],
  ['status', 6],
  ['duration_ms', 11],
  ['vendor_calls', 12],
  ['approval_id', 28],
];

const cell = (v: unknown, width: number) => String(v ?? '').slice(0, width).padEnd(width);

/** One CLI command; the lines it prints. Exported for the tests. */
export async function runAudit(argv: string[], source: Store | AuditSource): Promise<string[]> {
  const { values } = parseArgs({
    args: argv,
    options: {
      tenant: { type: 'string' },
      key: { type: 'string' },
      connection: { type: 'string' },
      tool: { type: 'string' },
      outcome: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.tenant) return [USAGE];
  const read: AuditSource = typeof source === 'function' ? source : (q) => queryAudit(source, loadConfig().audit, q);
  const query: AuditQuery = {
    tenant: values.tenant,
    ...(values.key ? { key_id: values.key } : {}),
    ...(values.connection ? { connection_id: values.connection } : {}),
    ...(values.tool ? { tool: values.tool } : {}),
    ...(values.outcome ? { outcome: values.outcome } : {}),
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    ...(values.limit ? { limit: Number(values.limit) } : {}),
  };
  const records: AuditRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await read({ ...query, ...(cursor ? { cursor } : {}) });
    records.push(...page.records);
    cursor = values.all ? page.next_cursor : undefined;
  } while (cursor);
  if (values.json) return records.map((r) => JSON.stringify(r));
  return [COLUMNS.map(([k, w]) => cell(k, w)).join(' '), ...records.map((r) => COLUMNS.map(([k, w]) => cell(r[k], w)).join(' ')), `${records.length} records`];
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  try {
    const config = loadConfig();
    const url = process.env.TES_URL;
    if (!url && config.store.kind === 'memory') throw new Error(`Nothing to read: set TES_URL and ADMIN_TOKEN (a running server) or STORE=dynamodb TABLE_NAME=… (a table).\n\n${USAGE}`);
    const source = url ? httpAudit(url, process.env.ADMIN_TOKEN ?? '') : await createStore(config.store);
    console.log((await runAudit(process.argv.slice(2), source)).join('\n'));
  } catch (err) {
    console.error(err instanceof ToolError || err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
