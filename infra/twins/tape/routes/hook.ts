import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { idParam, jsonBody, notFound, validation, type TwinEnv } from '../http';
import { HOOK_TYPES, targetProblem, type HookType, type TapeHook, type TapeHookDeliveries } from '../delivery';
import type { TapeState, TapeUser } from '../state';

/** The hook as create and list show it (with app_id). */
const full = (h: TapeHook) => ({ hook_id: h.hook_id, app_id: h.app_id, status: h.status, num_failed_executions: h.num_failed_executions, type: h.type, url: h.url });
/** The hook as verify/request, verify/validate and delete show it in docs/vendors/tape.md#webhooks: without app_id. */
const short = (h: TapeHook) => ({ hook_id: h.hook_id, status: h.status, num_failed_executions: h.num_failed_executions, type: h.type, url: h.url });

/** /v1/hook, as docs/vendors/tape.md#webhooks documents it; delivery is in ../delivery.ts. */
export function hookRoutes(state: TapeState, deliveries: TapeHookDeliveries) {
  const r = new Hono<TwinEnv>();
  const { hooks, codes } = deliveries;

  // An app is visible when its workspace is: private workspaces only to members and org admins.
  function findApp(id: number, u: TapeUser) {
    const app = state.apps.get(id);
    const ws = app ? state.workspaces.get(app.workspace_id) : undefined;
    const visible = ws !== undefined && (u.role === 'owner' || u.role === 'admin' || ws.type !== 'private' || state.members.get(ws.workspace_id)?.has(u.user_id) === true);
    if (!app || !visible) throw notFound(`App does not exist(${id})!`);
    return app;
  }

  function findHook(id: number, u: TapeUser): TapeHook {
    const hook = hooks.get(id);
    if (!hook) throw notFound(`Hook does not exist(${id})!`);
    findApp(hook.app_id, u);
    return hook;
  }

  r.post('/hook/app/:appId', async (c) => {
    const app = findApp(idParam(c, 'appId'), c.get('user'));
    const body = await jsonBody(c);
    if (!HOOK_TYPES.includes(body.type as HookType)) {
      throw validation(`"type" is required and needs to be exactly one of ${HOOK_TYPES.map((t) => `"${t}"`).join(', ')}.`);
    }
    if (typeof body.url !== 'string' || body.url.trim() === '') throw validation('"url" is required and must be a string.');
    const problem = targetProblem(body.url, deliveries.options.targets);
    if (problem) throw validation(problem);
    const hook: TapeHook = { hook_id: state.nextId.hook++, app_id: app.app_id, status: 'inactive', num_failed_executions: 0, type: body.type as HookType, url: body.url };
    hooks.set(hook.hook_id, hook);
    return c.json(full(hook));
  });

  r.get('/hook/app/:appId', (c) => {
    const app = findApp(idParam(c, 'appId'), c.get('user'));
    const webhooks = [...hooks.values()].filter((h) => h.app_id === app.app_id).map(full);
    return c.json({ webhooks, total: webhooks.length });
  });

  r.delete('/hook/:id', (c) => {
    const hook = findHook(idParam(c, 'id'), c.get('user'));
    hooks.delete(hook.hook_id);
    codes.delete(hook.hook_id);
    // docs/vendors/tape.md#webhooks's delete answer shows the removed hook as inactive: it receives nothing any more.
    return c.json(short({ ...hook, status: 'inactive' }));
  });

  r.post('/hook/:id/verify/request', (c) => {
    const hook = findHook(idParam(c, 'id'), c.get('user'));
    if (hook.status === 'active') throw validation(`Hook ${hook.hook_id} is already verified and active; only an unverified hook can request verification.`);
    const code = randomBytes(4).toString('hex');
    codes.set(hook.hook_id, code);
    deliveries.sendVerification(hook, code);
    return c.json(short(hook));
  });

  r.post('/hook/:id/verify/validate', async (c) => {
    const hook = findHook(idParam(c, 'id'), c.get('user'));
    const body = await jsonBody(c);
    if (typeof body.code !== 'string' || body.code === '') throw validation('"code" is required and must be a string.');
    if (hook.status === 'active') throw validation(`Hook ${hook.hook_id} is already verified and active.`);
    const expected = codes.get(hook.hook_id);
    if (expected === undefined) throw validation(`No verification was requested for hook ${hook.hook_id}; request one first (POST /v1/hook/${hook.hook_id}/verify/request).`);
    if (body.code !== expected) throw validation(`The verification code is not valid for hook ${hook.hook_id}.`);
    codes.delete(hook.hook_id);
    hook.status = 'active';
    hook.num_failed_executions = 0;
    return c.json(short(hook));
  });

  return r;
}
