import type { Handler, Hono } from 'hono';
import type { TwinEnv } from '../http';

type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Podio's URLs are slash-aware (docs/vendors/podio.md#conventions: collections end in `/`, objects do not) and Podio
 * takes both forms, so every route is registered with and without its trailing slash. Done per
 * route, not with Hono's `strict: false`, because that option belongs to the outermost app and the
 * local server mounts the twin inside its own.
 */
export function slashAware(r: Hono<TwinEnv>) {
  const add = (method: Method) => (path: string, handler: Handler<TwinEnv>) => {
    const bare = path.replace(/\/$/, '');
    r[method](bare, handler);
    r[method](`${bare}/`, handler);
  };
  return { get: add('get'), post: add('post'), put: add('put'), delete: add('delete') };
}
