import type { Hono } from 'hono';
import type { Runtime } from '../core/runtime';
import { adminListing } from '../identity/admin-page';
import { callScopesOf } from '../identity/owners';
import { Inbox } from './inbox';
import { eventsConfigOf } from './config';

/**
 * GET /v1/admin/subscriptions: every tenant's event subscriptions (or ?tenant='s) with their
 * unacknowledged event counts, for the operator console. A subscription is kept under the scope
 * of the call that made it (a key through a connection), not its tenant: identity names the
 * tenant's scopes (shared/identity/owners.ts) and each one's index is read here. Paged as the
 * other admin listings (shared/identity/admin-page.ts); never a subscription's secret or kept credential.
 */
export function subscriptionAdminRoutes(app: Hono<any>, rt: Runtime): void {
  adminListing(app, rt, '/v1/admin/subscriptions', 'subscriptions', async (_c, id, tenant) => {
    const inbox = new Inbox(rt.store, eventsConfigOf(rt).ttlSeconds);
    const scopes = await callScopesOf(id, tenant);
    const lists = await Promise.all(scopes.map(async (s) => (await inbox.list(s.scope, s.platform)).map((sub) => ({ sub, key_id: s.key_id, connection_id: s.connection }))));
    const subs = lists.flat().sort((a, b) => b.sub.created_at.localeCompare(a.sub.created_at));
    return Promise.all(subs.map(async ({ sub, key_id, connection_id }) => ({ subscription_id: sub.id, platform: sub.platform, status: sub.status, watch: sub.watch, created_at: sub.created_at, tenant, ...(key_id.startsWith('csi_') ? {} : { key_id }), connection_id, unacknowledged: await inbox.pending(sub) })));
  });
}
