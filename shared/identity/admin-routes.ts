import type { Context, Hono } from 'hono';
import { failure } from '../core/envelope';
import { ToolError } from '../core/errors';
import type { Runtime } from '../core/runtime';
import { auditAdmin, checkAdmin } from './admin';
import { view, type ConnectionRecord } from './connections';
import type { Identity } from './identity';
import { identityOf } from './index';
import { checkTenant } from './keys';
import { pageAcross } from './admin-page';
import { familyOf, type SignInRecord } from './mcp-oauth/sign-ins';
import { tenantsOf } from './owners';
import { vendorName } from './providers';
import { revokeAtVendor } from './vendor-revoke';

/**
 * The admin API beyond service keys (shared/identity/routes.ts) and approvals
 * (shared/identity/approval-routes.ts): connections of every tenant, the built-in authorization
 * server's clients and sign-ins — what the operator console shows (event subscriptions and MCP
 * tasks are listed by their own layers: shared/events/admin.ts, shared/mcp/admin.ts). Each listing
 * takes ?tenant= (every tenant without it), ?limit= (1-500, default 50) and ?cursor= (the
 * previous page's next_cursor), newest or in the tenants' order; no answer holds a key, token,
 * credential or sealed value. Every write is audited (surface "admin").
 */

/** The context variable a write sets to the tenant it touched, for its audit record. */
const AUDIT_TENANT = 'auditTenant';

/** ?tenant= checked, or every tenant. */
async function tenantsAsked(c: Context, id: Identity): Promise<string[]> {
  const t = c.req.query('tenant');
  return t === undefined || t === '' ? tenantsOf(id) : [checkTenant(t)];
}

/** A connection as the admin API lists it: never its credential; its vendor and whether it needs its end user. */
const connectionView = (id: Identity, r: ConnectionRecord) => ({ ...view(r), vendor: vendorName(id.platforms, r.platform), needs_reauth: r.status === 'needs_reauth' });

export function adminRoutes(app: Hono<any>, rt: Runtime): void {
  const json = (c: Context, status: number, data: unknown) => c.json({ success: true, data }, status as 200, { 'cache-control': 'no-store' });
  const admin = (work: (c: Context, id: Identity) => Promise<Response>) => async (c: Context) => {
    try {
      const id = await identityOf(rt);
      await checkAdmin(c, id);
      return await work(c, id);
    } catch (err) {
      const out = failure(err, { platform: '', tool: '' });
      return c.json(out.body, out.status as 400, { ...out.headers, 'cache-control': 'no-store' });
    }
  };
  /** An admin write: audited with its outcome, whichever it is, under the tenant it touched (AUDIT_TENANT, else the path's). */
  const tenantOf = (c: Context): string | undefined => c.get(AUDIT_TENANT) ?? c.req.param('tenant');
  const write = (op: string, work: (c: Context, id: Identity) => Promise<Response>) =>
    admin(async (c, id) => {
      try {
        const res = await work(c, id);
        await auditAdmin(rt, c, op, tenantOf(c), res.status);
        return res;
      } catch (err) {
        await auditAdmin(rt, c, op, tenantOf(c), err instanceof ToolError ? failure(err, { platform: '', tool: '' }).status : 500, err instanceof ToolError ? err.code : 'INTERNAL_ERROR');
        throw err;
      }
    });

  // --- Connections ------------------------------------------------------------------------------
  app.get('/v1/admin/connections', admin(async (c, id) => {
    const { platform, status } = c.req.query();
    const page = await pageAcross(c, await tenantsAsked(c, id), async (tenant) =>
      (await id.connections.list(tenant, platform ? { platform } : {})).filter((r) => !status || r.status === status).map((r) => connectionView(id, r)),
    );
    return json(c, 200, { connections: page.items, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) });
  }));
  const connectionAt = async (c: Context, id: Identity) => {
    const tenant = checkTenant(c.req.param('tenant'));
    const record = await id.connections.get(tenant, c.req.param('id')!);
    if (!record) throw new ToolError('NOT_FOUND', `No connection "${c.req.param('id')!.slice(0, 40)}" in tenant "${tenant}". List them with GET /v1/admin/connections?tenant=${tenant}.`, { connection_id: c.req.param('id')!.slice(0, 40) });
    return record;
  };
  app.delete('/v1/admin/connections/:tenant/:id', write('deleteConnection', async (c, id) => {
    const record = await connectionAt(c, id);
    const vendorRevoked = await revokeAtVendor(id, record);
    await id.connections.remove(record);
    return json(c, 200, { id: record.id, tenant: record.tenant, deleted: true, vendor_revoked: vendorRevoked });
  }));
  app.post('/v1/admin/connections/:tenant/:id/reconnect', write('reconnectConnection', async (c, id) => {
    const record = await connectionAt(c, id);
    return json(c, 200, { connection: connectionView(id, record), ...(await id.link(record)) });
  }));

  // --- The built-in authorization server: clients and sign-ins ------------------------------------
  const signInView = async (id: Identity, s: SignInRecord) => {
    const client = /^https?:\/\//.test(s.client_id) ? undefined : await id.grants.registeredClient(s.client_id);
    return { ...s, client_name: client?.client_name ?? (/^https:\/\//.test(s.client_id) ? new URL(s.client_id).host : s.client_id), status: (await id.grants.signInEnded(s.id.slice(4), s.client_id)) ? 'revoked' : 'active' };
  };
  app.get('/v1/admin/oauth/grants', admin(async (c, id) => {
    const status = c.req.query('status');
    const page = await pageAcross(c, await tenantsAsked(c, id), async (tenant) => {
      const all = await Promise.all((await id.grants.signIns.ofTenant(tenant)).map((s) => signInView(id, s)));
      return all.filter((s) => !status || s.status === status);
    });
    return json(c, 200, { grants: page.items, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) });
  }));
  app.delete('/v1/admin/oauth/grants/:id', write('revokeGrant', async (c, id) => {
    const family = familyOf(c.req.param('id')!);
    const found = family && (await id.grants.signIns.get(family));
    if (!family || !found) throw new ToolError('NOT_FOUND', `No sign-in "${c.req.param('id')!.slice(0, 40)}": it is mistyped, or it ended unused. List them with GET /v1/admin/oauth/grants.`, { grant_id: c.req.param('id')!.slice(0, 40) });
    c.set(AUDIT_TENANT, found.tenant);
    await id.grants.revokeSignIn(family);
    return json(c, 200, { id: found.id, tenant: found.tenant, revoked: true });
  }));
  app.get('/v1/admin/oauth/clients', admin(async (c, id) => {
    const tenant = c.req.query('tenant');
    const signIns = (await Promise.all((await tenantsAsked(c, id)).map((t) => id.grants.signIns.ofTenant(t)))).flat();
    const ids = [...new Set([...(tenant ? [] : await id.grants.signIns.clientIds()), ...signIns.map((s) => s.client_id)])];
    const page = await pageAcross(c, ['*'], async () => {
      const clients = await Promise.all(ids.map(async (clientId) => {
        const registered = /^https?:\/\//.test(clientId) ? undefined : await id.grants.registeredClient(clientId);
        if (!registered && !/^https?:\/\//.test(clientId)) return undefined;
        const own = signIns.filter((s) => s.client_id === clientId);
        return {
          client_id: clientId,
          client_name: registered?.client_name ?? new URL(clientId).host,
          kind: registered ? 'registered' : 'metadata document',
          ...(registered ? { application_type: registered.application_type, redirect_uris: registered.redirect_uris } : {}),
          sign_ins: own.length,
          tenants: [...new Set(own.map((s) => s.tenant))],
        };
      }));
      return clients.filter((x) => x !== undefined);
    });
    return json(c, 200, { clients: page.items, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) });
  }));
}
