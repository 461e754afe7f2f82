import { Hono } from 'hono';
import { calculate } from '../filter';
import { idParam, invalid, jsonBody, notFound, paging, type TwinContext, type TwinEnv } from '../http';
import { appFor, canSeeSpace, itemFor } from '../items';
import { byLine, CREATED_VIA, type PodioItemRow, type PodioState } from '../state';
import { appMini, itemLink, settingsOf, titleOf, valuesOut } from '../values';
import { slashAware } from './both';

/** Item calculations, revisions and their diffs, references, and the items a relation field may point to. */
export function itemExtraRoutes(state: PodioState) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);
  const item = (c: TwinContext) => itemFor(state, c.get('user'), idParam(c, 'item_id'));

  const itemMini = (i: PodioItemRow) => ({ item_id: i.item_id, app_item_id: i.app_item_id, title: titleOf(state, i), link: itemLink(state, i), created_on: i.created_on });

  route.post('/item/app/:app_id/calculate', async (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    const body = await jsonBody(c);
    const { limit } = paging(c, { default: 15, max: 100, min: 1, body, offset: false });
    return c.json(calculate(state, app, body, limit));
  });

  const revisionOut = (it: PodioItemRow, n: number) => {
    const rev = it.revisions[n]!;
    return { revision: rev.revision, item_revision_id: rev.item_revision_id, app_revision: 1, created_on: rev.created_on, created_by: byLine(state.users.get(rev.created_by)), created_via: CREATED_VIA, type: rev.type, user: byLine(state.users.get(rev.created_by)) };
  };

  function revisionParam(c: TwinContext, it: PodioItemRow, name: string): number {
    const n = idParam(c, name);
    if (n >= it.revisions.length) throw notFound(`Revision ${n} of item ${it.item_id} does not exist; its revisions are 0 to ${it.revisions.length - 1}.`);
    return n;
  }

  route.get('/item/:item_id/revision/', (c) => {
    const it = item(c);
    return c.json(it.revisions.map((_, n) => revisionOut(it, n)));
  });

  route.get('/item/:item_id/revision/:revision', (c) => {
    const it = item(c);
    return c.json(revisionOut(it, revisionParam(c, it, 'revision')));
  });

  /** The fields whose values differ between two revisions, each with its values before and after. */
  route.get('/item/:item_id/revision/:from/:to', (c) => {
    const it = item(c);
    const from = revisionParam(c, it, 'from');
    const to = revisionParam(c, it, 'to');
    const app = state.apps.get(it.app_id)!;
    const at = (n: number): PodioItemRow => ({ ...it, values: it.revisions[n]!.values });
    const base = c.get('base');
    return c.json(
      app.fields
        .filter((f) => f.type !== 'calculation')
        .filter((f) => JSON.stringify(it.revisions[from]!.values.get(f.field_id) ?? []) !== JSON.stringify(it.revisions[to]!.values.get(f.field_id) ?? []))
        .map((f) => ({ field_id: f.field_id, type: f.type, external_id: f.external_id, label: f.label, from: valuesOut(state, app, f, at(from), base), to: valuesOut(state, app, f, at(to), base) })),
    );
  });

  /** Items of other apps whose relation fields point at this item, grouped by app. */
  route.get('/item/:item_id/reference/', (c) => {
    const it = item(c);
    const u = c.get('user');
    const groups = [];
    for (const app of state.apps.values()) {
      if (!canSeeSpace(u, app.space_id)) continue;
      const fields = app.fields.filter((f) => f.type === 'app' && f.status === 'active');
      const items = [...state.items.values()]
        .filter((i) => i.app_id === app.app_id && fields.some((f) => (i.values.get(f.field_id) ?? []).some((v) => v.item_id === it.item_id)))
        .sort((a, b) => b.item_id - a.item_id);
      if (items.length) groups.push({ app: appMini(app), items: items.map(itemMini) });
    }
    return c.json(groups);
  });

  /** Items a relation field may point to (its referenced apps), by a part of their title. */
  route.get('/item/field/:field_id/find', (c) => {
    const fieldId = idParam(c, 'field_id');
    const app = [...state.apps.values()].find((a) => a.fields.some((f) => f.field_id === fieldId));
    const field = app?.fields.find((f) => f.field_id === fieldId);
    if (!app || !field) throw notFound();
    appFor(state, c.get('user'), app.app_id);
    if (field.type !== 'app') throw invalid(`Field ${fieldId} is a ${field.type} field; only app (relation) fields reference items.`);
    const { limit } = paging(c, { default: 13, max: 100, min: 1, offset: false });
    const text = (c.req.query('text') ?? '').trim().toLowerCase();
    const refs = ((settingsOf(field).referenced_apps as { app_id: number }[]) ?? []).map((x) => x.app_id).filter((id) => canSeeSpace(c.get('user'), state.apps.get(id)?.space_id ?? 0));
    const found = [...state.items.values()]
      .filter((i) => refs.includes(i.app_id) && titleOf(state, i).toLowerCase().includes(text))
      .sort((a, b) => b.item_id - a.item_id)
      .slice(0, limit);
    return c.json(found.map((i) => ({ ...itemMini(i), app: appMini(state.apps.get(i.app_id)!) })));
  });

  return r;
}
