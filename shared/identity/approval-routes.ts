import type { Context, Hono } from 'hono';
import { ToolError } from '../core/errors';
import { failure } from '../core/envelope';
import type { Runtime } from '../core/runtime';
import { bearerKey } from './bearer';
import { planText } from '../core/dry-run';
import { queryAudit, type AuditQuery } from '../core/audit';
import type { ApprovalRecord, Approvals } from './approvals';
import { approvalsOf, identityOf } from './index';
import { isServiceKey } from './keys';
import { actorOf, checkAdmin } from './admin';
import { adminRoutes } from './admin-routes';
import { consoleRoutes } from './console';
import { esc } from './pages/layout';
import type { Identity } from './identity';

/**
 * Approvals and the audit trail over HTTP: the approval page a person opens from a held call's
 * link (server-rendered HTML, no script, its own CSP), the requesting tenant's status route, and
 * the admin API's listings (approvals, audit records).
 */

/** The most a decision form may send: the CSRF token, the decision and an approver's key. */
const MAX_FORM_BYTES = 4096;

/** No script, style or frame from anywhere: the page is plain HTML and cannot be framed (clickjacking). */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

function approvalPage(c: Context, status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title></head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
  return c.html(html, status as 200, PAGE_HEADERS);
}

const AUDIT_FILTERS = ['tenant', 'key_id', 'connection_id', 'tool', 'outcome', 'from', 'to', 'cursor', 'limit'];

const UNKNOWN_LINK = '<p id="unknown">This approval link is not valid: it is mistyped, or its request no longer exists. Nothing will run from it. Ask whoever sent it for a new one.</p>';

export function approvalRoutes(app: Hono<any>, rt: Runtime): void {
  // The rest of the admin API and the operator console ride here too: mounted only by the functions
  // that serve them (the identity and MCP functions, the local server), not by every platform's.
  adminRoutes(app, rt);
  consoleRoutes(app, rt);
  const json = (c: Context, status: number, data: unknown) => c.json({ success: true, data }, status as 200, { 'cache-control': 'no-store' });
  const route = (work: (c: Context, id: Identity, approvals: Approvals) => Promise<Response>) => async (c: Context) => {
    try {
      return await work(c, await identityOf(rt), await approvalsOf(rt));
    } catch (err) {
      const out = failure(err, { platform: '', tool: '' });
      return c.json(out.body, out.status as 400, { ...out.headers, 'cache-control': 'no-store' });
    }
  };
  const admin = (work: (c: Context, id: Identity, approvals: Approvals) => Promise<Response>) =>
    route(async (c, id, approvals) => {
      await checkAdmin(c, id);
      return work(c, id, approvals);
    });
  // --- The requesting tenant: the status of one of its approvals -------------------------------
  app.get('/v1/approvals/:id', route(async (c, id, approvals) => {
    const auth = bearerKey(c.req.header('authorization'));
    if (!auth.ok) throw auth.error;
    if (!isServiceKey(auth.key)) throw new ToolError('UNAUTHORIZED', 'Approvals are read with a service key (tes_…) of their tenant.', { header: 'Authorization' });
    const key = await id.keys.authenticate(auth.key);
    return json(c, 200, approvals.view(await approvals.require(key.tenant, c.req.param('id')!)));
  }));

  // --- Admin API --------------------------------------------------------------------------------
  app.get('/v1/admin/approvals', admin(async (c, _id, approvals) => json(c, 200, await approvals.list(c.req.query('tenant'), { status: c.req.query('status'), limit: c.req.query('limit'), cursor: c.req.query('cursor') }))));
  app.get('/v1/admin/approvals/:id', admin(async (c, _id, approvals) => {
    const id = c.req.param('id')!.slice(0, 40);
    const r = await approvals.get(id);
    if (!r) throw new ToolError('NOT_FOUND', `No approval "${id}".`, { approval_id: id });
    // While it waits, what it would change (the dry-run plan, as the approval page shows it), for the admin who decides; never the arguments.
    const v = approvals.view(r);
    return json(c, 200, v.status === 'pending' ? { ...v, preview: planText((await approvals.open(r)).plan) } : v);
  }));
  // The admin decides (the console's Approve and Reject): the trail says who — "admin", or the admin key's id.
  for (const decision of ['approve', 'reject'] as const) {
    app.post(`/v1/admin/approvals/:id/${decision}`, admin(async (c, _id, approvals) => {
      const id = c.req.param('id')!.slice(0, 40);
      const r = await approvals.get(id);
      if (!r) throw new ToolError('NOT_FOUND', `No approval "${id}".`, { approval_id: id });
      const status = approvals.statusOf(r);
      if (status !== 'pending') throw new ToolError('INVALID_PARAMETER', `Approval "${id}" is ${status}; only a pending request can be decided.`, { parameter: 'id', expected: 'a pending approval' });
      const done = await approvals.decide(r, decision === 'approve' ? 'approved' : 'rejected', actorOf(c), 'admin');
      // Another decision landed first (another tab, the approval page): it stands.
      if (!done) throw new ToolError('INVALID_PARAMETER', `Approval "${id}" was decided meanwhile; nothing changed.`, { parameter: 'id', expected: 'a pending approval' });
      return json(c, 200, approvals.view(done));
    }));
  }
  // Filters as queryAudit takes them: it checks each; a name it does not know is refused, not ignored.
  app.get('/v1/admin/audit', admin(async (c) => {
    const q = c.req.query();
    const unknown = Object.keys(q).find((k) => !AUDIT_FILTERS.includes(k));
    if (unknown) throw new ToolError('INVALID_PARAMETER', `Unknown filter "${unknown.slice(0, 40)}"; the audit trail is filtered by ${AUDIT_FILTERS.join(', ')}.`, { parameter: unknown.slice(0, 40), expected: AUDIT_FILTERS.join(' | ') });
    return json(c, 200, await queryAudit(rt.store, rt.config.audit, q as unknown as AuditQuery));
  }));

  // --- The approval page: a single-use capability link -------------------------------------------
  app.get('/v1/approve/:token', async (c) => {
    const approvals = await approvalsOf(rt);
    const r = await approvals.byLink(c.req.param('token')!);
    if (!r) return approvalPage(c, 404, 'Approval link not valid', UNKNOWN_LINK);
    const settled = settledPage(c, approvals, r);
    if (settled) return settled;
    const content = await approvals.open(r);
    const signIn = rt.config.approvals?.signIn === true;
    const facts: [string, string][] = [
      ['Tool', `${r.platform}/${r.tool}`],
      ['Connection', r.connection],
      ['Asked by key', r.key_id],
      ['Tenant', r.tenant],
      ['Asked at', r.created_at],
      ['Expires at', r.expires_at],
    ];
    const rows = facts.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('');
    const approver = signIn ? '<p><label>Your approver key <input name="approver_key" type="password" autocomplete="off" required placeholder="tes_…"></label></p>' : '';
    const form = `<form id="decide" method="post" action="/v1/approve/${esc(c.req.param('token')!)}"><input type="hidden" name="csrf" value="${esc(r.csrf)}">${approver}<button type="submit" name="decision" value="approve" id="approve">Approve</button> <button type="submit" name="decision" value="reject" id="reject">Reject</button></form>`;
    return approvalPage(
      c,
      200,
      `Approve ${r.platform}/${r.tool}?`,
      `<p>An agent asks to run this call. Nothing has been sent to the vendor; approving lets the agent run it once, unchanged.</p><table id="facts">${rows}</table><h2>What it would change</h2><pre id="preview">${esc(planText(content.plan))}</pre><h2>Arguments</h2><pre id="arguments">${esc(JSON.stringify(content.arguments, null, 2))}</pre>${form}`,
    );
  });

  app.post('/v1/approve/:token', async (c) => {
    const approvals = await approvalsOf(rt);
    const r = await approvals.byLink(c.req.param('token')!);
    if (!r) return approvalPage(c, 404, 'Approval link not valid', UNKNOWN_LINK);
    const settled = settledPage(c, approvals, r);
    if (settled) return settled;
    const size = Number(c.req.header('content-length') ?? NaN);
    if (!Number.isFinite(size) || size > MAX_FORM_BYTES) return approvalPage(c, 413, 'Form too large', '<p>Go back and submit the form again.</p>');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (!approvals.csrfMatches(r, form.csrf)) return approvalPage(c, 403, 'Form expired', '<p id="csrf">This form did not come from this approval page. Open the approval link again and decide there.</p>');
    const decision = form.decision === 'approve' ? 'approved' : form.decision === 'reject' ? 'rejected' : undefined;
    if (!decision) return approvalPage(c, 400, 'No decision', '<p>Choose Approve or Reject.</p>');
    let by = 'link';
    if (rt.config.approvals?.signIn) {
      const refused = await approverRefusal(await identityOf(rt), r, form.approver_key);
      if (typeof refused === 'string') return approvalPage(c, 403, 'Not an approver', `<p id="not-approver">${esc(refused)}</p>`);
      by = `key:${refused.id}`;
    }
    const done = await approvals.decide(r, decision, by);
    // A second click (or another tab) finds the decision taken: it changes nothing.
    if (!done) return settledPage(c, approvals, (await approvals.get(r.id)) ?? r) ?? approvalPage(c, 409, 'Already decided', '<p id="settled">This request was already decided.</p>');
    return decision === 'approved'
      ? approvalPage(c, 200, 'Approved', `<p id="approved">Approved. The agent may now run ${esc(r.platform)}/${esc(r.tool)} once, with approval id <code>${esc(r.id)}</code>, until ${esc(r.expires_at)}.</p>`)
      : approvalPage(c, 200, 'Rejected', `<p id="rejected">Rejected. ${esc(r.platform)}/${esc(r.tool)} will not run from this request.</p>`);
  });
}

/** The page of a request no longer waiting for a decision: expired, or decided (and by whom). */
function settledPage(c: Context, approvals: Approvals, r: ApprovalRecord): Response | undefined {
  const status = approvals.statusOf(r);
  if (status === 'pending') return undefined;
  const call = `${esc(r.platform)}/${esc(r.tool)}`;
  if (status === 'expired') return approvalPage(c, 410, 'Approval expired', `<p id="expired">This request for ${call} expired at ${esc(r.expires_at)}. Nothing ran from it; the agent must ask again.</p>`);
  return approvalPage(c, 200, 'Already decided', `<p id="settled" data-status="${status}">This request for ${call} was already ${status === 'executed' ? 'approved and has run' : status}. Nothing changed.</p>`);
}

/** APPROVAL_SIGN_IN=required: the approver's service key must be active, of the tenant, say `approver`, and not be the key that asked. */
async function approverRefusal(id: Identity, r: ApprovalRecord, raw: unknown): Promise<string | { id: string }> {
  const presented = typeof raw === 'string' ? raw.trim() : '';
  if (!isServiceKey(presented) || presented.length > 200) return 'Sign in with your approver key (tes_…).';
  let key;
  try {
    key = await id.keys.authenticate(presented);
  } catch {
    return 'That key is unknown, revoked or expired.';
  }
  if (key.tenant !== r.tenant || key.policy.approver !== true) return 'That key may not approve this tenant\'s calls: its policy must say "approver": true.';
  if (key.id === r.key_id) return 'The key that asked for this call cannot approve it; a person with an approver key must.';
  return { id: key.id };
}
