import type { Context, Hono } from 'hono';
import { PAGE_CSS, PAGE_CSS_PATH, PAGE_CSS_URL } from './style';

/**
 * The pages' one design: every page a person sees (sign-in, consent, connect, connected, errors)
 * is this layout around its own body, server-rendered, with the stylesheet of style.ts. A page
 * carries no script and no inline style, so its CSP is strict; it is never framed, cached or
 * sent a referrer.
 */

export const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The headers of every page: `form-action` is left out on purpose, as the consent form's answer is a redirect to the host. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
} as const;

export interface PageOptions {
  /** A wider column, for tables (the console). */
  wide?: boolean;
  /** The line above the card; default: the service's name. */
  brand?: string;
}

/** A whole HTML document: the title as the page's one h1, the body inside a card. */
export function layout(title: string, body: string, options: PageOptions = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>${esc(title)}</title><link rel="stylesheet" href="${PAGE_CSS_URL}"></head><body><main${options.wide ? ' class="wide"' : ''}><p class="brand">${esc(options.brand ?? 'Tool Execution Service')}</p><div class="card"><h1>${esc(title)}</h1>${body}</div></main></body></html>`;
}

/** Answers a page. */
export function page(c: Context, status: number, title: string, body: string, options?: PageOptions): Response {
  return c.html(layout(title, body, options), status as 200, PAGE_HEADERS);
}

/** Serves the stylesheet (the one asset of the pages). */
export function pageAssets(app: Hono<any>): void {
  app.get(PAGE_CSS_PATH, (c) => c.body(PAGE_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' }));
}
