import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';

/**
 * The local server's API reference at GET /: Swagger UI (swagger-ui-dist, served from the
 * installed package: no CDN, there is no network) over GET /v1/openapi.json, with "Try it out"
 * sending each request with the sandbox key of the tool's platform. Local only: nothing here
 * enters a Lambda bundle. For a deployment, the same files beside the API (README, "API reference").
 */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Tool Execution Service — API reference</title>
<link rel="icon" href="/reference/favicon-32x32.png">
<link rel="stylesheet" href="/reference/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/reference/swagger-ui-bundle.js"></script>
<script src="/reference/init.js"></script>
</body>
</html>
`;

/** The page's start: Swagger UI on the OpenAPI document; a request without Authorization gets its platform's sandbox key. */
function init(keys: Record<string, string>): string {
  return `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  // ~190 operations: tags start closed (open one, or type in the filter box).
  docExpansion: 'none',
  filter: true,
  tryItOutEnabled: true,
  displayOperationId: true,
  requestInterceptor: function (req) {
    var keys = ${JSON.stringify(keys)};
    var platform = new URL(req.url, location.href).pathname.split('/')[3];
    if (!req.headers.Authorization && keys[platform]) req.headers.Authorization = 'Bearer ' + keys[platform];
    return req;
  },
});
`;
}

export function mountReference(app: Hono, keys: Record<string, string>): void {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const headers = (type: string) => ({ 'content-type': type, 'cache-control': 'no-cache' });
  app.get('/', (c) => c.body(PAGE, 200, headers('text/html; charset=utf-8')));
  app.get('/reference/init.js', (c) => c.body(init(keys), 200, headers('text/javascript; charset=utf-8')));
  app.get('/reference/:file', async (c, next) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return next();
    return c.body(await readFile(join(dir, file)), 200, headers(type));
  });
}
