import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { accessLevelOf, createGrants, grantOf, grantOut, grantsOn } from '../grants';
import { idParam, invalid, jsonBody, type TwinContext, type TwinEnv } from '../http';
import { itemFor } from '../items';
import type { PodioState } from '../state';
import { slashAware } from './both';

/** Grants on items (docs/vendors/podio.md#grants): create, list, change one person's access level, remove one person's. Changes answer 204. */
export function grantRoutes(state: PodioState, clock: Clock) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  /** The object shared: items only in this twin; the user must see it. */
  const target = (c: TwinContext) => {
    const type = c.req.param('ref_type');
    if (type !== 'item') throw invalid(`Only items can be shared here, got "${type}".`);
    return itemFor(state, c.get('user'), idParam(c, 'ref_id'));
  };

  route.post('/grant/:ref_type/:ref_id/', async (c) => {
    const item = target(c);
    return c.json(createGrants(state, item, c.get('user'), await jsonBody(c), clock.now()));
  });

  route.get('/grant/:ref_type/:ref_id/', (c) => {
    const item = target(c);
    return c.json(grantsOn(state, item.item_id).map((g) => grantOut(state, g)));
  });

  route.put('/grant/:ref_type/:ref_id/:user_id', async (c) => {
    const item = target(c);
    const grant = grantOf(state, item.item_id, idParam(c, 'user_id'));
    grant.access_level = accessLevelOf((await jsonBody(c)).access_level);
    return c.body(null, 204);
  });

  route.delete('/grant/:ref_type/:ref_id/:user_id', (c) => {
    const item = target(c);
    state.grants.rows.delete(grantOf(state, item.item_id, idParam(c, 'user_id')).grant_id);
    return c.body(null, 204);
  });

  return r;
}
