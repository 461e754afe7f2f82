import { Hono } from 'hono';
import { forbidden, idParam, jsonBody, notFound, paging, type TwinContext, type TwinEnv } from '../http';
import { appFor } from '../items';
import { search, type SearchScope } from '../search';
import type { PodioState } from '../state';
import { slashAware } from './both';

/** Search (docs/vendors/podio.md#search): everywhere the user sees, in an org, a space or an app; body {query, ref_type, limit, offset, search_fields}. */
export function searchRoutes(state: PodioState) {
  const r = new Hono<TwinEnv>();
  const route = slashAware(r);

  const answer = async (c: TwinContext, scope: SearchScope) => {
    const body = await jsonBody(c);
    // Podio pages search with limit (default 20 here) and offset in the body.
    const { limit, offset } = paging(c, { default: 20, max: 100, body });
    return c.json(search(state, c.get('user'), scope, body).slice(offset, offset + limit));
  };

  route.post('/search/', (c) => answer(c, {}));
  route.post('/search/org/:org_id/', (c) => {
    if (idParam(c, 'org_id') !== state.org.org_id) throw notFound();
    return answer(c, {});
  });
  route.post('/search/space/:space_id/', (c) => {
    const space_id = idParam(c, 'space_id');
    if (!state.spaces.has(space_id)) throw notFound();
    if (!c.get('user').spaces.includes(space_id)) throw forbidden(`The user ${c.get('user').user_id} does not have the right "view" on space ${space_id}`);
    return answer(c, { space_id });
  });
  route.post('/search/app/:app_id/', (c) => {
    const app = appFor(state, c.get('user'), idParam(c, 'app_id'));
    return answer(c, { app_id: app.app_id });
  });

  return r;
}
