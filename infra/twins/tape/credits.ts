/**
 * What each request costs in Tape's credits (docs/vendors/tape.md#rate-limits: 10 by default; each resource page
 * names its more expensive endpoints).
 */
import type { Context } from 'hono';
import { automationCost } from './automation/routes';
import { BASE_CREDITS, tapePath } from './http';
import { viewCost } from './routes/view';

const MB = 1024 * 1024;
/** Record listings whose page size tops out at 500 (docs/vendors/tape.md#records). */
const RECORD_PAGES = /^\/v1\/record\/(app|view)\/\d+$|^\/v1\/record\/filter\/app\/\d+$/;

/** Credits of one request, by method, path and (for uploads and emails) what it carries. */
export async function tapeCost(c: Context): Promise<number> {
  const method = c.req.method;
  const path = tapePath(c);
  // docs/vendors/tape.md#rate-limits names the deletion of a workspace as an expensive request.
  if (method === 'DELETE' && /^\/v1\/workspace\/\d+$/.test(path)) return 10 * BASE_CREDITS;
  const listed = automationCost(method, path) ?? viewCost(method, path);
  if (listed !== undefined) return listed;
  if (method === 'POST' && path === '/v1/file/upload') return BASE_CREDITS * uploadFactor(await bodyBytes(c));
  if (method === 'POST' && path === '/v1/email/send') return BASE_CREDITS * (1 + (await recipients(c)));
  // docs/vendors/tape.md#rate-limits: "a request that fetches records with the maximum page size" costs more; the docs give no
  // figure, so the twin charges twice the base for a page at the maximum (500).
  if (RECORD_PAGES.test(path) && (method === 'GET' || method === 'POST') && c.req.query('limit') === '500') return 2 * BASE_CREDITS;
  return BASE_CREDITS;
}

/** docs/vendors/tape.md#files: 2x for any upload, one more x per 50 MB of the files' total size (1 KB 2x, 50 MB 3x, 100 MB 4x, 300 MB 8x). */
export function uploadFactor(bytes: number): number {
  return 2 + Math.floor(bytes / (50 * MB));
}

async function bodyBytes(c: Context): Promise<number> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > 0) return declared;
  // A JSON or empty body was read (and cached) by the request log; a multipart one is still a stream:
  // measure a copy, the route reads the original.
  if (c.req.raw.bodyUsed) return Buffer.byteLength(await c.req.text());
  return (await c.req.raw.clone().arrayBuffer()).byteLength;
}

/** docs/vendors/tape.md#email: one more credit multiple per address in `to`, `cc` and `bcc`; a body that is not JSON counts none (the route refuses it). */
async function recipients(c: Context): Promise<number> {
  try {
    // Hono caches the text: the route reads the same body afterwards.
    const body = JSON.parse(await c.req.text()) as Record<string, unknown>;
    const count = (v: unknown) => (Array.isArray(v) ? v.length : typeof v === 'string' ? 1 : 0);
    return count(body?.to) + count(body?.cc) + count(body?.bcc);
  } catch {
    return 0;
  }
}
