import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { idParam, invalid, jsonBody, paging, writeFlags, type TwinContext, type TwinEnv } from '../http';
import type { PodioState } from '../state';
import {
  applyTask, createLabel, createTask, deleteLabel, deleteTask, labelFor, labelInput, labelsOf, listTasks, setCompleted, taskChanges, taskFor, taskListOut,
  taskOut, taskSummary,
} from '../tasks';
import { slashAware } from './both';

/** Tasks and labels (docs/vendors/podio.md#tasks). Static paths (`label`, `summary`) are registered before `/task/{id}`. */
export function taskRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);
  const user = (c: TwinContext) => c.get('user');

  // --- labels: personal to each user ---
  route.get('/task/label/', (c) => c.json(labelsOf(state, user(c))));
  route.post('/task/label/', async (c) => {
    const l = labelInput(await jsonBody(c), false) as { text: string; color: string };
    return c.json({ label_id: createLabel(state, user(c), l).label_id });
  });
  route.put('/task/label/:label_id', async (c) => {
    const label = labelFor(state, user(c), idParam(c, 'label_id'));
    Object.assign(label, labelInput(await jsonBody(c), true));
    return c.body(null, 204);
  });
  route.delete('/task/label/:label_id', (c) => {
    deleteLabel(state, labelFor(state, user(c), idParam(c, 'label_id')));
    return c.body(null, 204);
  });

  route.get('/task/summary', (c) => c.json(taskSummary(state, user(c), paging(c, { default: 4, max: 100, offset: false }).limit, clock.now())));

  route.get('/task/', (c) => {
    const q = c.req.query();
    const { limit, offset } = paging(c, { default: 30, max: 100 });
    const full = q.view === 'full';
    if (q.view !== undefined && q.view !== '' && !['full', 'micro', 'short'].includes(q.view)) throw invalid(`"view" is micro, short or full; got "${q.view}".`);
    const rows = listTasks(state, user(c), q, clock.now()).slice(offset, offset + limit);
    return c.json(rows.map(({ task, group }) => ({ ...(full ? taskOut(state, task, user(c), c.get('base')) : taskListOut(state, task, user(c))), ...(group !== undefined ? { group } : {}) })));
  });

  // Before /task/{ref_type}/{ref_id}/, which has the same shape.
  route.post('/task/:task_id/complete', (c) => {
    setCompleted(taskFor(state, user(c), idParam(c, 'task_id')), true, user(c), clock.now());
    writeFlags(c);
    return c.json({ recurring_task_id: null });
  });
  route.post('/task/:task_id/incomplete', (c) => {
    setCompleted(taskFor(state, user(c), idParam(c, 'task_id')), false, user(c), clock.now());
    writeFlags(c);
    return c.body(null, 204);
  });

  /** POST /task/ and /task/{ref_type}/{ref_id}/: one task, or one per user when `responsible` is a list (answered as a list). */
  async function create(c: TwinContext, ref: { ref_type: string; ref_id: number } | null) {
    writeFlags(c);
    const body = await jsonBody(c);
    const responsibles = Array.isArray(body.responsible) ? body.responsible : [body.responsible];
    if (!responsibles.length) throw invalid('"responsible" must name at least one user when it is a list.');
    const now = clock.now();
    const plans = responsibles.map((responsible) => taskChanges(state, user(c), { ...body, ...(ref ?? {}), ...(responsible === undefined ? {} : { responsible }) }, null));
    const tasks = plans.map((p) => createTask(state, user(c), p, now));
    const out = tasks.map((t) => taskOut(state, t, user(c), c.get('base')));
    return c.json(Array.isArray(body.responsible) ? out : out[0]);
  }
  route.post('/task/', (c) => create(c, null));
  route.post('/task/:ref_type/:ref_id/', (c) => create(c, { ref_type: c.req.param('ref_type')!, ref_id: idParam(c, 'ref_id') }));

  route.get('/task/:task_id', (c) => c.json(taskOut(state, taskFor(state, user(c), idParam(c, 'task_id')), user(c), c.get('base'))));

  route.put('/task/:task_id', async (c) => {
    const t = taskFor(state, user(c), idParam(c, 'task_id'));
    writeFlags(c);
    const changes = taskChanges(state, user(c), await jsonBody(c), t.task_id);
    applyTask(state, t, changes, user(c), clock.now());
    return c.json(taskOut(state, t, user(c), c.get('base')));
  });

  route.delete('/task/:task_id', (c) => {
    const t = taskFor(state, user(c), idParam(c, 'task_id'));
    writeFlags(c);
    deleteTask(state, t);
    return c.body(null, 204);
  });

  return r;
}
