import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/core/config';
import { ToolError } from '../shared/core/errors';
import { ServiceKeys, type KeyView } from '../shared/identity/keys';
import { approvalRule } from '../shared/identity/policy';
import { createStore, type Store } from '../shared/store';
import { platforms } from '../functions/platforms';

/** Each platform's toolsets: a new key's policy may name only these (as the admin API checks). */
const KNOWN = new Map(platforms.map((p) => [p.name, Object.keys(p.toolsets)] as const));

const USAGE = `Service keys (README "Service keys and connected accounts").

  npm run keys -- create --tenant <t> --platforms crm,collab [--toolsets deals,crm:associations] [--read-only]
                         [--manage-connections | --no-manage-connections]
                         [--rate-limit 100/60] [--expires 2027-01-31T00:00:00Z] [--name "nightly sync"]
                         [--approval none|destructive|writes|createDeal,deals] [--approver] [--admin]
  npm run keys -- list [--tenant <t>]
  npm run keys -- rotate <key id>
  npm run keys -- revoke <key id>

Against the running local server (its memory store) through the admin API: set TES_URL (e.g.
http://127.0.0.1:8787) and ADMIN_TOKEN (printed by npm start). Against a deployed table directly:
STORE=dynamodb TABLE_NAME=<table> (with AWS credentials and region, or DYNAMODB_ENDPOINT).`;

/** The four operations, on a store (ServiceKeys) or through the admin API. */
type KeyAdmin = Pick<ServiceKeys, 'create' | 'list' | 'rotate' | 'revoke'>;

/** The admin API of a running service as a KeyAdmin. */
export function httpKeyAdmin(base: string, adminToken: string, fetcher: typeof fetch = fetch): KeyAdmin {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetcher(`${base.replace(/\/$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const out = (await res.json()) as { success: boolean; data?: any; error?: { message: string } };
    if (!out.success) throw new Error(out.error?.message ?? `HTTP ${res.status}`);
    return out.data;
  };
  const created = (d: any) => {
    const { key, ...record } = d;
    return { key, record };
  };
  return {
    create: async (input) => created(await call('POST', '/v1/admin/keys', input)),
    list: async (tenant) => (await call('GET', `/v1/admin/keys${tenant ? `?tenant=${encodeURIComponent(tenant)}` : ''}`)).keys,
    rotate: async (id) => created(await call('POST', `/v1/admin/keys/${encodeURIComponent(id)}/rotate`)),
    revoke: async (id) => call('DELETE', `/v1/admin/keys/${encodeURIComponent(id)}`),
  };
}

const row = (k: KeyView) => `${k.id}  ${k.status.padEnd(7)}  tenant=${k.tenant}  platforms=${k.policy.platforms.join(',')}${k.policy.toolsets ? `  toolsets=${k.policy.toolsets.join(',')}` : ''}${k.policy.read_only ? '  read-only' : ''}${k.policy.manage_connections !== undefined ? `  manage-connections=${k.policy.manage_connections}` : ''}${k.policy.approval && k.policy.approval !== 'none' ? `  approval=${[k.policy.approval].flat().join(',')}` : ''}${k.policy.approver ? '  approver' : ''}${k.policy.admin ? '  admin' : ''}${k.name ? `  "${k.name}"` : ''}`;

/** One CLI command against a store or an admin API; the lines it prints. Exported for the tests. */
export async function runKeys(argv: string[], target: Store | KeyAdmin): Promise<string[]> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      platforms: { type: 'string' },
      toolsets: { type: 'string' },
      'read-only': { type: 'boolean' },
      'manage-connections': { type: 'boolean' },
      'no-manage-connections': { type: 'boolean' },
      'rate-limit': { type: 'string' },
      expires: { type: 'string' },
      name: { type: 'string' },
      approval: { type: 'string' },
      approver: { type: 'boolean' },
      admin: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const keys: KeyAdmin = 'revoke' in target ? target : new ServiceKeys(target, Date.now, KNOWN);
  const [command, id] = positionals;
  const list = (s?: string) => s?.split(',').map((x) => x.trim()).filter(Boolean);
  switch (values.help ? 'help' : command) {
    case 'create': {
      const rate = values['rate-limit'] ? /^(\d+)\/(\d+)$/.exec(values['rate-limit']) : undefined;
      if (values['rate-limit'] && !rate) throw new Error('--rate-limit is <max>/<window seconds>, e.g. 100/60');
      const { key, record } = await keys.create({
        tenant: values.tenant,
        name: values.name,
        expires_at: values.expires,
        policy: {
          platforms: list(values.platforms) ?? [],
          ...(values.toolsets ? { toolsets: list(values.toolsets) } : {}),
          read_only: values['read-only'] ?? false,
          ...(values['manage-connections'] ? { manage_connections: true } : values['no-manage-connections'] ? { manage_connections: false } : {}),
          ...(rate ? { rate_limit: { max: Number(rate[1]), window_seconds: Number(rate[2]) } } : {}),
          ...(values.approval ? { approval: approvalRule(values.approval) } : {}),
          ...(values.approver ? { approver: true } : {}),
          ...(values.admin ? { admin: true } : {}),
        },
      });
      return [row(record), `key: ${key}`, 'Shown once: store it now (only its hash is kept).'];
    }
    case 'list':
      return (await keys.list(values.tenant)).map(row);
    case 'rotate': {
      if (!id) throw new Error('rotate needs the key id (npm run keys -- list)');
      const { key, record } = await keys.rotate(id);
      return [row(record), `key: ${key}`, `The old key ${id} is revoked. Shown once: store the new key now.`];
    }
    case 'revoke':
      if (!id) throw new Error('revoke needs the key id (npm run keys -- list)');
      return [row(await keys.revoke(id))];
    default:
      return [USAGE];
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  try {
    const config = loadConfig();
    const url = process.env.TES_URL;
    if (!url && config.store.kind === 'memory') throw new Error(`Nothing to manage: set TES_URL and ADMIN_TOKEN (a running server) or STORE=dynamodb TABLE_NAME=… (a table).\n\n${USAGE}`);
    const target = url ? httpKeyAdmin(url, process.env.ADMIN_TOKEN ?? '') : await createStore(config.store);
    const lines = await runKeys(process.argv.slice(2), target);
    console.log(lines.join('\n'));
  } catch (err) {
    console.error(err instanceof ToolError || err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}
