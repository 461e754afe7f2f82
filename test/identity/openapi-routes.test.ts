import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/core/config';
import { approvalRoutes } from '../../shared/identity/approval-routes';
import { createApp } from '../../shared/http/app';
import { IDENTITY_ROUTES } from '../../shared/identity/openapi';
import { PAGE_ROUTES } from '../../shared/identity/console';
import { createRuntime } from '../../shared/lambda/runtime';

const root = new URL('../..', import.meta.url).pathname;

/** serverless.yml's routes of one function, as "METHOD /path" (the one-line `httpApi: { method, path }` form the identity and mcp functions use). */
function deployedRoutes(fn: string): string[] {
  const yml = readFileSync(`${root}serverless.yml`, 'utf8');
  const block = new RegExp(`\\n  ${fn}:\\n([\\s\\S]*?)(?=\\n  [a-z]+:\\n|\\nresources:)`).exec(yml)![1]!;
  return [...block.matchAll(/httpApi: \{ method: ([A-Z]+), path: (?:'([^']+)'|([^\s}]+)) \}/g)].map((m) => `${m[1]} ${m[2] ?? m[3]}`);
}

describe('the identity routes: served, documented in OpenAPI and deployed alike', () => {
  it("the OpenAPI table lists exactly the identity function's routes the app serves, and serverless.yml routes each of them", async () => {
    const rt = await createRuntime({ platforms: [], config: loadConfig({}) });
    const identityPath = /^\/(v1\/(admin|connections|connect|approvals|approve)\b|oauth\/|\.well-known\/oauth-)/;
    const app = createApp(rt);
    approvalRoutes(app, rt);
    const served = app.routes.filter((r) => r.method !== 'ALL' && identityPath.test(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`);
    const documented = IDENTITY_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect([...new Set(served)].sort()).toEqual([...documented].sort());
    const deployed = deployedRoutes('identity');
    // Besides the API: the pages' stylesheet and the operator console, HTML for people.
    expect(deployed.filter((r) => !r.startsWith('OPTIONS ')).sort()).toEqual([...documented, 'GET /v1/openapi/identity.json', ...PAGE_ROUTES].sort());
    const withConsole = createApp(rt);
    approvalRoutes(withConsole, rt);
    const pages = withConsole.routes.filter((r) => /^\/(console|pages)\b/.test(r.path)).map((r) => `${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`);
    expect([...new Set(pages)].sort()).toEqual([...PAGE_ROUTES].sort());
    // Every path a browser host calls cross-origin has its preflight routed too.
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke', '/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/v1/mcp/{platform}']) expect(deployed).toContain(`OPTIONS ${path}`);
    expect(deployedRoutes('mcp')).toEqual(['ANY /v1/mcp', 'GET /v1/openapi.json']);
  });
});
