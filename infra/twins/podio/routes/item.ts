import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { anyJsonBody, idParam, invalid, jsonBody, notFound, paging, writeFlags, type TwinContext, type TwinEnv } from '../http';
import { filterItems } from '../filter';
import { appFor, cloneItem, createItem, deleteItem, fieldsOut, itemFor, itemOut, updateItem } from '../items';
import type { PodioState } from '../state';
import { fieldOf, itemLink, titleOf } from '../values';
import { commentOut, commentsOn } from '../comments';
import { slashAware } from './both';

/** Items (docs/vendors/podio.md#items): create, read, update (all fields or one), delete, clone, filter, count. */
export function itemRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);
  const item = (c: TwinContext) => itemFor(state, c.get('user'), idParam(c, 'item_id'));

  route.post('/item/app/:app_id/', async (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    writeFlags(c);
    const created = createItem(state, app, c.get('user'), await jsonBody(c), clock.now());
    return c.json({ item_id: created.item_id, app_item_id: created.app_item_id, title: titleOf(state, created), link: itemLink(state, created) });
  });

  route.get('/item/:item_id', (c) => {
    const it = item(c);
    const base = c.get('base');
    return c.json({ ...itemOut(state, it, base), comments: commentsOn(state, 'item', it.item_id).map((x) => commentOut(state, x, base)) });
  });

  route.get('/item/:item_id/basic', (c) => c.json(itemOut(state, item(c), c.get('base'))));

  /** The item's field values alone (PHP client: get_values), all or one field by id or external id. */
  route.get('/item/:item_id/value', (c) => c.json(fieldsOut(state, item(c), c.get('base'))));

  route.get('/item/:item_id/value/:field', (c) => {
    const it = item(c);
    const key = c.req.param('field') ?? '';
    if (!fieldOf(state.apps.get(it.app_id)!, key)) throw notFound(`No field "${key}" in app ${it.app_id}`);
    return c.json(fieldsOut(state, it, c.get('base')).find((f) => String(f.field_id) === key || f.external_id === key)?.values ?? []);
  });

  route.get('/app/:app_id/item/:app_item_id', (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    const appItemId = idParam(c, 'app_item_id');
    const found = [...state.items.values()].find((i) => i.app_id === app.app_id && i.app_item_id === appItemId);
    if (!found) throw notFound();
    return c.json(itemOut(state, found, c.get('base')));
  });

  route.get('/item/app/:app_id/external_id/:external_id', (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    const ext = c.req.param('external_id');
    const found = [...state.items.values()].filter((i) => i.app_id === app.app_id && i.external_id === ext).sort((a, b) => b.item_id - a.item_id)[0];
    if (!found) throw notFound();
    return c.json(itemOut(state, found, c.get('base')));
  });

  route.put('/item/:item_id', async (c) => {
    const it = item(c);
    writeFlags(c);
    return c.json(updateItem(state, it, c.get('user'), await jsonBody(c), clock.now()));
  });

  route.put('/item/:item_id/value/:field', async (c) => {
    const it = item(c);
    writeFlags(c);
    const key = c.req.param('field') ?? '';
    const f = fieldOf(state.apps.get(it.app_id)!, key);
    if (!f) throw notFound(`No field "${key}" in app ${it.app_id}`);
    const value = await anyJsonBody(c);
    if (value === undefined) throw invalid('The body is the new value of the field (an empty array clears it).');
    return c.json(updateItem(state, it, c.get('user'), { fields: { [f.field_id]: value } }, clock.now()));
  });

  route.put('/item/:item_id/value', async (c) => {
    const it = item(c);
    writeFlags(c);
    return c.json(updateItem(state, it, c.get('user'), { fields: await jsonBody(c) }, clock.now()));
  });

  route.delete('/item/:item_id', (c) => {
    const it = item(c);
    writeFlags(c);
    deleteItem(state, it);
    return c.body(null, 204);
  });

  route.post('/item/:item_id/clone', (c) => {
    const it = item(c);
    writeFlags(c);
    return c.json({ item_id: cloneItem(state, it, c.get('user'), clock.now()).item_id });
  });

  route.post('/item/app/:app_id/filter/', async (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    const body = await jsonBody(c);
    const { limit, offset } = paging(c, { default: 30, max: 500, body });
    const { total, items } = filterItems(state, app, body);
    const base = c.get('base');
    return c.json({ total, filtered: items.length, items: items.slice(offset, offset + limit).map((i) => itemOut(state, i, base)) });
  });

  route.get('/item/app/:app_id/count', (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    return c.json({ count: [...state.items.values()].filter((i) => i.app_id === app.app_id).length });
  });

  return r;
}
