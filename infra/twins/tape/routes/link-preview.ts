import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { jsonBody, validation, type TwinEnv } from '../http';
import type { AutomationEngine } from '../automation/engine';

const thumbnail = () => `https://s3.eu-central-1.amazonaws.com/tape-thumbnails/${randomBytes(15).toString('hex')}`;

/** The first match of `re` in the page, entities of the common kind decoded. */
function pick(html: string, re: RegExp): string | undefined {
  const m = re.exec(html)?.[1]?.trim();
  return m ? m.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'") : undefined;
}

/**
 * POST /v1/link-preview (docs/vendors/tape.md#conventions): `id` and `url` always; `title`, `description` and
 * `previewImage` when the page could be read. The twin has no internet: it reads pages of the
 * hosts its automations may call (the same allow list), and answers the bare preview for others —
 * what Tape answers for a site it cannot reach.
 */
export function linkPreviewRoutes(engine: AutomationEngine) {
  const r = new Hono<TwinEnv>();
  let nextId = 1;
  r.post('/link-preview', async (c) => {
    const body = await jsonBody(c);
    const url = body.url;
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw validation('"url" is required and must be an absolute http(s) URL.');
    const preview: Record<string, unknown> = { id: nextId++, url };
    const res = await engine.reach(parsed.href).catch(() => undefined);
    if (res?.ok && /html/i.test(res.headers.get('content-type') ?? '')) {
      const html = (await res.text()).slice(0, 512 * 1024);
      const title = pick(html, /<meta[^>]+property=["']og:title["'][^>]*content=["']([^"']*)["']/i) ?? pick(html, /<title[^>]*>([^<]*)<\/title>/i);
      const description = pick(html, /<meta[^>]+(?:name|property)=["'](?:og:)?description["'][^>]*content=["']([^"']*)["']/i);
      const image = pick(html, /<meta[^>]+property=["']og:image["'][^>]*content=["']([^"']*)["']/i) ?? pick(html, /<link[^>]+rel=["'](?:shortcut )?icon["'][^>]*href=["']([^"']*)["']/i);
      if (title) preview.title = title;
      if (description) preview.description = description;
      // Tape stores the image as its own thumbnails (docs/vendors/tape.md#files).
      if (image) preview.previewImage = { small: thumbnail(), medium: thumbnail(), large: thumbnail() };
    }
    return c.json(preview);
  });
  return r;
}
