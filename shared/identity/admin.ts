import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { readSecureKey } from '../aws/ssm';
import { NO_TENANT, writeAudit } from '../core/audit';
import { ToolError } from '../core/errors';
import type { Runtime } from '../core/runtime';
import { bearerKey } from './bearer';
import type { Identity } from './identity';

const sha = (s: string) => createHash('sha256').update(s).digest();

/** The admin credential: ADMIN_TOKEN, or the SSM SecureString named by ADMIN_TOKEN_PARAMETER; undefined when there is none. */
export async function adminCredential(id: Identity): Promise<string | undefined> {
  return id.config.adminToken ?? (id.config.adminTokenParameter ? await readSecureKey(id.config.adminTokenParameter) : undefined);
}

/** Whether `presented` is the admin credential (compared in constant time, as hashes). */
export const isAdminCredential = (presented: string, expected: string) => timingSafeEqual(sha(presented), sha(expected));

/** UNAUTHORIZED unless the request carries the admin credential (every /v1/admin/… route). */
export async function checkAdmin(c: Context, id: Identity): Promise<void> {
  const expected = await adminCredential(id);
  if (!expected) throw new ToolError('UNAUTHORIZED', 'The admin API is off: this deployment has no admin credential (ADMIN_TOKEN or ADMIN_TOKEN_PARAMETER).', { header: 'Authorization' });
  const auth = bearerKey(c.req.header('authorization'));
  if (!auth.ok) throw auth.error;
  if (!isAdminCredential(auth.key, expected)) throw new ToolError('UNAUTHORIZED', 'Wrong admin credential.', { header: 'Authorization' });
}

/**
 * Who acts through the admin API: "admin" (the admin credential), or `key:<id>` of the admin key
 * a person signed in to the console with. The console sends it as ACTOR_HEADER beside the admin
 * credential; only a request that carries the credential (checkAdmin) is read, and its holder may
 * do anything anyway, so the header adds attribution, not power.
 */
export const ACTOR_HEADER = 'x-tes-actor';
export const actorOf = (c: Context): string => {
  const sent = c.req.header(ACTOR_HEADER);
  return sent && /^key:key_[0-9a-f]{16}$/.test(sent) ? sent : 'admin';
};

/**
 * One admin action in the audit trail (shared/core/audit.ts): kind "call" on surface "admin",
 * the operation as its tool, the affected tenant, who did it (`by`, and `key_id` for an admin
 * key), its outcome and status. Never a key, token or request body.
 */
export async function auditAdmin(rt: Runtime, c: Context, op: string, tenant: string | undefined, status: number, outcome?: string): Promise<void> {
  const by = actorOf(c);
  await writeAudit(rt.store, rt.config.audit, {
    kind: 'call',
    time: new Date().toISOString(),
    tenant: tenant ?? NO_TENANT,
    ...(by.startsWith('key:') ? { key_id: by.slice(4) } : {}),
    surface: 'admin',
    platform: 'admin',
    tool: op,
    access: 'write',
    outcome: outcome ?? (status < 400 ? 'OK' : 'ERROR'),
    status,
    by,
  });
}

/** The admin API's writes to service keys (shared/identity/routes.ts), by method and path: the operation's name. */
const KEY_WRITES: [string, RegExp, string][] = [
  ['POST', /^\/v1\/admin\/keys\/?$/, 'createKey'],
  ['POST', /^\/v1\/admin\/keys\/[^/]+\/rotate$/, 'rotateKey'],
  ['DELETE', /^\/v1\/admin\/keys\/[^/]+$/, 'revokeKey'],
];

/**
 * Audits the admin API's key writes once they are answered: the tenant is the answer's (the key's),
 * the outcome its error code. Mounted before the key routes (Hono runs middleware in the order it
 * was added); the other admin writes audit themselves (shared/identity/admin-routes.ts, approvals).
 */
export function auditKeyWrites(app: Hono<any>, rt: Runtime): void {
  const audit: MiddlewareHandler = async (c, next) => {
    await next();
    const op = KEY_WRITES.find(([method, path]) => method === c.req.method && path.test(c.req.path))?.[2];
    if (!op) return;
    const body = (await c.res.clone().json().catch(() => undefined)) as { data?: { tenant?: unknown }; error?: { code?: unknown } } | undefined;
    const tenant = typeof body?.data?.tenant === 'string' ? body.data.tenant : undefined;
    await auditAdmin(rt, c, op, tenant, c.res.status, typeof body?.error?.code === 'string' ? body.error.code : undefined);
  };
  app.use('/v1/admin/keys', audit);
  app.use('/v1/admin/keys/*', audit);
}
