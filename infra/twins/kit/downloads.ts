import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';

/**
 * Keyless download links, as a vendor's signed storage link works: whoever holds
 * `<base>/files/<id>/<token>/<name>` gets the bytes, without an API key; an unknown id or a wrong
 * token is 404. A twin hands them out under its public base (the local server's mount of the twin),
 * so `curl "$link"` downloads the file on the machine the user runs the server on.
 */

/** What a keyless link serves: the bytes, their media type and the secret part of the link. */
export interface Downloadable {
  content: Uint8Array;
  mimetype: string;
  token: string;
}

/** A fresh secret for a file's link (unguessable: the link is the only key). */
export const downloadToken = (): string => randomBytes(12).toString('hex');

/** The link of a file under `base` (the twin's public base or its API origin). */
export const downloadLink = (base: string, id: number, token: string, name: string): string => `${base}/files/${id}/${token}/${encodeURIComponent(name)}`;

/** The route that serves the links: mount it before the twin's authentication, at the twin's root. */
export function downloadRoutes(find: (id: number) => Downloadable | undefined): Hono {
  const r = new Hono();
  r.get('/files/:id/:token/:name', (c) => {
    const file = find(Number(c.req.param('id')));
    if (!file || file.token !== c.req.param('token')) return c.text('Not found', 404);
    return c.body(new Uint8Array(file.content), 200, { 'content-type': file.mimetype, 'content-disposition': `attachment; filename="${c.req.param('name').replace(/"/g, '')}"` });
  });
  return r;
}
