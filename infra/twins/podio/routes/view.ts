import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { flagsOf, forbidden, idParam, invalid, jsonBody, notFound, type TwinEnv } from '../http';
import { appFor } from '../items';
import { VIEW_LAYOUTS, type PodioState, type ViewDefinition, type ViewLayout } from '../state';
import {
  anyViewOut, assertCanChange, createSavedView, definitionOf, lastViewOut, savedViewFor, savedViewOut, setLastView, standardViewOut,
} from '../views';
import { slashAware } from './both';

/**
 * Views (docs/vendors/podio.md#views): list, get by id / standard name / `last`, create, update, delete, the
 * user's last view, and the app's default view. Updates and deletes answer 204.
 */
export function viewRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  route.get('/view/app/:app_id/', (c) => {
    const user = c.get('user');
    const app = appFor(state, user, idParam(c, 'app_id'));
    const { include_standard_views } = flagsOf(c, { include_standard_views: false });
    const now = clock.now();
    const saved = [...state.views.saved.values()].filter((v) => v.app_id === app.app_id && (!v.private || v.created_by === user.user_id)).map((v) => savedViewOut(state, v, user, now));
    const standard = include_standard_views ? VIEW_LAYOUTS.map((l) => standardViewOut(state, app, l, user, now)) : [];
    return c.json([...standard, ...saved]);
  });

  route.put('/view/app/:app_id/last', async (c) => {
    const user = c.get('user');
    const app = appFor(state, user, idParam(c, 'app_id'));
    const body = await jsonBody(c);
    if (body.name !== undefined) throw invalid('The last view has no name: leave "name" out.');
    // The last view is the state the user left the app in: what the body leaves out takes the defaults.
    const base: ViewDefinition = { sort_by: 'created_on', sort_desc: true, filters: [], layout: 'table', fields: {}, grouping: null };
    setLastView(state, app, user, definitionOf(state, app, body, base, user, clock.now()));
    return c.body(null, 204);
  });

  route.get('/view/app/:app_id/:view', (c) => {
    const user = c.get('user');
    const app = appFor(state, user, idParam(c, 'app_id'));
    const name = c.req.param('view') ?? '';
    const now = clock.now();
    if (name === 'last') return c.json(lastViewOut(state, app, user, now));
    if (VIEW_LAYOUTS.includes(name as ViewLayout)) return c.json(standardViewOut(state, app, name as ViewLayout, user, now));
    if (!/^\d+$/.test(name)) throw notFound();
    return c.json(anyViewOut(state, user, Number(name), now, app.app_id));
  });

  route.post('/view/app/:app_id/', async (c) => {
    const user = c.get('user');
    const app = appFor(state, user, idParam(c, 'app_id'));
    const row = createSavedView(state, app, user, await jsonBody(c), clock.now());
    return c.json({ view_id: row.view_id });
  });

  /** Older SDKs read a view by id alone (docs/vendors/podio.md#views). */
  route.get('/view/:view_id', (c) => c.json(anyViewOut(state, c.get('user'), idParam(c, 'view_id'), clock.now())));

  route.put('/view/:view_id', async (c) => {
    const user = c.get('user');
    const v = savedViewFor(state, user, idParam(c, 'view_id'));
    assertCanChange(user, v);
    const body = await jsonBody(c);
    if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '')) throw invalid('"name" must be a non-empty string.');
    if (body.private !== undefined && typeof body.private !== 'boolean') throw invalid('"private" must be true or false.');
    // Checked in full before anything changes; `filters` given replaces every filter.
    const d = definitionOf(state, state.apps.get(v.app_id)!, body, v, user, clock.now());
    Object.assign(v, d, body.name !== undefined ? { name: (body.name as string).trim() } : {}, body.private !== undefined ? { private: body.private } : {});
    return c.body(null, 204);
  });

  route.delete('/view/:view_id', (c) => {
    const user = c.get('user');
    const v = savedViewFor(state, user, idParam(c, 'view_id'));
    assertCanChange(user, v);
    state.views.saved.delete(v.view_id);
    if (state.views.defaults.get(v.app_id) === v.view_id) state.views.defaults.delete(v.app_id);
    return c.body(null, 204);
  });

  /** docs/vendors/podio.md#views names no path; `POST /view/{view_id}/default`. Needs app update rights (org admins here); saved, shared views only. */
  route.post('/view/:view_id/default', (c) => {
    const user = c.get('user');
    const viewId = idParam(c, 'view_id');
    if (!state.views.saved.has(viewId)) {
      anyViewOut(state, user, viewId, clock.now());
      throw invalid('Only a saved view can be the default view; standard views cannot.');
    }
    const v = savedViewFor(state, user, viewId);
    if (user.role !== 'admin') throw forbidden(`The user ${user.user_id} does not have the right "update" on app ${v.app_id}`);
    if (v.private) throw invalid('A private view cannot be the default view of the app.');
    state.views.defaults.set(v.app_id, v.view_id);
    return c.body(null, 204);
  });

  return r;
}
