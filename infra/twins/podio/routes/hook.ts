import { Hono } from 'hono';
import { targetProblem, type Clock } from '../../kit';
import { HOOK_TYPES, hookOut, MAX_HOOKS_PER_TYPE, type PodioHooks } from '../hooks';
import { forbidden, idParam, invalid, jsonBody, notFound, type TwinContext, type TwinEnv } from '../http';
import { appFor } from '../items';
import type { HookRefType, PodioHookRow, PodioState } from '../state';
import { slashAware } from './both';

/** Hooks (docs/vendors/podio.md#hooks): create on an app or space, list, delete, request and validate verification. */
export function hookRoutes(state: PodioState, clock: Clock, hooks: PodioHooks) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  /** The object of `/hook/{ref_type}/{ref_id}/`: an app or space the user sees. */
  function ref(c: TwinContext): { type: HookRefType; id: number } {
    const type = c.req.param('ref_type');
    const id = idParam(c, 'ref_id');
    if (type === 'app') appFor(state, c.get('user'), id);
    else if (type === 'space') {
      if (!state.spaces.has(id)) throw notFound();
      if (!c.get('user').spaces.includes(id)) throw forbidden(`The user ${c.get('user').user_id} does not have the right "view" on space ${id}`);
    } else throw invalid(`The hook's object type is app or space, got "${type}".`);
    return { type, id };
  }

  /** The hook, if it exists and its object is one the user sees. */
  function hook(c: TwinContext): PodioHookRow {
    const h = state.hooks.get(idParam(c, 'hook_id'));
    if (!h) throw notFound();
    if (h.ref_type === 'app') appFor(state, c.get('user'), h.ref_id);
    else if (!c.get('user').spaces.includes(h.ref_id)) throw notFound();
    return h;
  }

  route.post('/hook/:ref_type/:ref_id/', async (c) => {
    const on = ref(c);
    const body = await jsonBody(c);
    if (typeof body.type !== 'string' || !HOOK_TYPES[on.type].includes(body.type)) {
      throw invalid(`The hook type for a ${on.type} is one of ${HOOK_TYPES[on.type].join(', ')}; got ${JSON.stringify(body.type)}.`);
    }
    if (typeof body.url !== 'string') throw invalid('"url" (where the events are posted) is required.');
    const problem = targetProblem(body.url, hooks.options.targets);
    if (problem) throw invalid(problem);
    const same = [...state.hooks.values()].filter((h) => h.ref_type === on.type && h.ref_id === on.id && h.type === body.type);
    if (same.length >= MAX_HOOKS_PER_TYPE) throw invalid(`At most ${MAX_HOOKS_PER_TYPE} hooks per event type per object.`);
    return c.json({ hook_id: hooks.create(on, body.type, body.url, c.get('user').user_id, clock.now()).hook_id });
  });

  route.get('/hook/:ref_type/:ref_id/', (c) => {
    const on = ref(c);
    return c.json([...state.hooks.values()].filter((h) => h.ref_type === on.type && h.ref_id === on.id).map(hookOut));
  });

  route.delete('/hook/:hook_id', (c) => {
    state.hooks.delete(hook(c).hook_id);
    return c.body(null, 204);
  });

  route.post('/hook/:hook_id/verify/request', (c) => {
    const h = hook(c);
    // The state table of the hook (inactive → request → validate → active) has no request on an active hook.
    if (h.status === 'active') throw invalid('The hook is already verified.');
    hooks.requestVerification(h);
    return c.body(null, 204);
  });

  route.post('/hook/:hook_id/verify/validate', async (c) => {
    const h = hook(c);
    const body = await jsonBody(c);
    if (typeof body.code !== 'string' || body.code === '') throw invalid('"code" (the code posted to the hook URL) is required.');
    if (h.code === null || body.code !== h.code) throw invalid('The verification code is not valid for this hook; request a new verification.');
    h.status = 'active';
    h.code = null;
    return c.body(null, 204);
  });

  return r;
}
