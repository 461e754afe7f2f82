import type { Context, Hono } from 'hono';
import { pageError } from '../core/audit';
import { failure } from '../core/envelope';
import type { Runtime } from '../core/runtime';
import { checkAdmin } from './admin';
import type { Identity } from './identity';
import { identityOf } from './index';
import { checkTenant } from './keys';
import { MAX_LISTED } from './mcp-oauth/sign-ins';
import { tenantsOf } from './owners';

/** A listing's position: the tenant it stopped in and how many of that tenant's items were given. */
interface Cursor {
  t: string;
  n: number;
}

function decode(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.t === 'string' && Number.isInteger(c.n) && c.n >= 0) return c;
  } catch {
    // falls through
  }
  throw pageError('cursor');
}

/**
 * One page over the tenants in order, each tenant's items as `read` lists them (bounded by
 * MAX_LISTED). The same cursor shape for every listing, so the console pages them alike.
 */
export async function pageAcross<T>(c: Context, tenants: readonly string[], read: (tenant: string) => Promise<T[]>): Promise<{ items: T[]; next_cursor?: string }> {
  const raw = c.req.query('limit');
  const limit = raw === undefined ? 50 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw pageError('limit');
  const cursor = decode(c.req.query('cursor'));
  const start = cursor ? tenants.indexOf(cursor.t) : 0;
  if (start < 0) throw pageError('cursor');
  const items: T[] = [];
  for (let i = start; i < tenants.length; i++) {
    const tenant = tenants[i]!;
    const all = (await read(tenant)).slice(0, MAX_LISTED);
    let n = i === start && cursor ? cursor.n : 0;
    while (n < all.length) {
      if (items.length === limit) return { items, next_cursor: Buffer.from(JSON.stringify({ t: tenant, n }), 'utf8').toString('base64url') };
      items.push(all[n]!);
      n += 1;
    }
  }
  return { items };
}

/**
 * `GET path`: an admin listing of every tenant's `name` (or ?tenant='s), one page of what `read`
 * lists per tenant, answered `{success, data: {<name>: [...], next_cursor?}}`, never cached. The
 * admin check, the tenant parameter, the cursor and the envelope of every listing, for layers above
 * identity whose records identity does not read (event subscriptions, MCP tasks).
 */
export function adminListing<T>(app: Hono<any>, rt: Runtime, path: string, name: string, read: (c: Context, id: Identity, tenant: string) => Promise<T[]>): void {
  app.get(path, async (c: Context) => {
    try {
      const id = await identityOf(rt);
      await checkAdmin(c, id);
      const asked = c.req.query('tenant');
      const tenants = asked === undefined || asked === '' ? await tenantsOf(id) : [checkTenant(asked)];
      const page = await pageAcross(c, tenants, (tenant) => read(c, id, tenant));
      return c.json({ success: true, data: { [name]: page.items, ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}) } }, 200, { 'cache-control': 'no-store' });
    } catch (err) {
      const out = failure(err, { platform: '', tool: '' });
      return c.json(out.body, out.status as 400, { ...out.headers, 'cache-control': 'no-store' });
    }
  });
}
