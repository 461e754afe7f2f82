import { Hono } from 'hono';
import { forbidden, idParam, invalid, notFound, type TwinContext, type TwinEnv } from '../http';
import { appFor } from '../items';
import type { PodioAppRow, PodioState } from '../state';
import { slashAware } from './both';

/** Apps with their fields (docs/vendors/podio.md#apps-spaces-orgs-and-contacts), by id, by space, or by the URL labels of an item link. */
export function appRoutes(state: PodioState) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  const TYPES = ['full', 'short', 'mini', 'micro'];

  function appOut(app: PodioAppRow, withFields: boolean) {
    const space = state.spaces.get(app.space_id)!;
    const link = `https://podio.com/${state.org.url_label}/${space.url_label}/apps/${app.url_label}`;
    return {
      app_id: app.app_id,
      status: 'active',
      space_id: app.space_id,
      url_label: app.url_label,
      url: link,
      link,
      rights: ['view', 'add_item', 'update', 'delete'],
      config: { type: 'standard', name: app.name, item_name: app.item_name, description: app.description, icon: app.icon, allow_edit: true, allow_create: true, allow_tags: true },
      ...(withFields ? { fields: app.fields.filter((f) => f.status === 'active').sort((a, b) => a.config.delta - b.config.delta).map((f) => ({ ...f, config: { ...f.config } })) } : {}),
    };
  }

  function detail(c: TwinContext): boolean {
    const type = c.req.query('type') ?? 'full';
    if (!TYPES.includes(type)) throw invalid(`"type" is one of ${TYPES.join(', ')}, got "${type}".`);
    return type === 'full' || type === 'short';
  }

  route.get('/app/space/:space_id/', (c) => {
    const space = state.spaces.get(idParam(c, 'space_id'));
    if (!space) throw notFound();
    const u = c.get('user');
    if (!u.spaces.includes(space.space_id)) throw forbidden(`The user ${u.user_id} does not have the right "view" on space ${space.space_id}`);
    return c.json([...state.apps.values()].filter((a) => a.space_id === space.space_id).map((a) => appOut(a, false)));
  });

  route.get('/app/:app_id', (c) => c.json(appOut(appFor(state, c.get('user'), idParam(c, 'app_id')), detail(c))));

  route.get('/app/org/:org_label/space/:space_label/:app_label', (c) => {
    const { org_label, space_label, app_label } = c.req.param();
    const space = [...state.spaces.values()].find((s) => s.url_label === space_label);
    const app = space && [...state.apps.values()].find((a) => a.space_id === space.space_id && a.url_label === app_label);
    if (org_label !== state.org.url_label || !app) throw notFound();
    return c.json(appOut(appFor(state, c.get('user'), app.app_id), detail(c)));
  });

  return r;
}
