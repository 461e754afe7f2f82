import type { MiddlewareHandler } from 'hono';

/**
 * DNS-rebinding protection of the local server's MCP endpoints: a web page the user visits must
 * not drive a local MCP server through the browser. Host must be the server's own (or a loopback
 * alias of it, or one of MCP_ALLOWED_HOSTS); an Origin, when sent, must be one of those too, or
 * an origin listed exactly in CORS_ALLOWED_ORIGINS (a browser-based host the user runs). A
 * rebinding page's Host is its own name, so it is refused whatever origins are listed.
 */
export function localOriginGuard(base: () => string, extraHosts: readonly string[] = [], allowedOrigins: readonly string[] = []): MiddlewareHandler {
  return async (c, next) => {
    const own = new URL(base());
    const port = own.port;
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(own.hostname);
    const hosts = new Set([own.host, ...(loopback ? ['127.0.0.1', 'localhost', '[::1]'].map((h) => `${h}:${port}`) : []), ...extraHosts]);
    const host = c.req.header('host') ?? '';
    const originHeader = c.req.header('origin');
    let refused: string | undefined;
    if (!hosts.has(host)) refused = `Invalid Host header: ${host || '(none)'}`;
    else if (originHeader !== undefined) {
      let originHost: string | undefined;
      try {
        const u = new URL(originHeader);
        originHost = u.protocol === 'http:' || u.protocol === 'https:' ? u.host : undefined;
      } catch {
        originHost = undefined;
      }
      if ((!originHost || !hosts.has(originHost)) && !allowedOrigins.includes(originHeader)) refused = `Invalid Origin header: ${originHeader}`;
    }
    if (refused) {
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${refused}. This local MCP server answers its own host only.` }, id: null }), {
        status: 403,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    }
    return next();
  };
}
