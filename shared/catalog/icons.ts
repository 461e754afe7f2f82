import type { McpIcon } from './providers';

/**
 * A platform's icon for tools/list (MCP 2025-11-25, SEP-973): a small SVG monogram, the platform's
 * initial on a colour derived from its name, served by the service itself at
 * /v1/icons/{platform}.svg (shared/http/icon-route.ts). By URL, not as a data: URI: every listed
 * tool carries it, and a URL costs a host a few tokens where the picture would cost a hundred.
 */
export function platformIconSvg(platform: string): string {
  let hash = 0;
  for (const ch of platform) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const letter = (platform.charAt(0) || '?').toUpperCase().replace(/[^A-Z0-9]/, '?');
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">' +
    `<rect width="48" height="48" rx="10" fill="hsl(${hue},55%,42%)"/>` +
    `<text x="24" y="33" font-family="Helvetica,Arial,sans-serif" font-size="28" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text>` +
    '</svg>'
  );
}

/** The icons of a platform's tools, served under `origin` (the service's public base URL). */
export function platformIcons(origin: string, platform: string): McpIcon[] {
  return [{ src: `${origin}/v1/icons/${encodeURIComponent(platform)}.svg`, mimeType: 'image/svg+xml', sizes: ['48x48'] }];
}
