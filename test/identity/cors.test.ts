import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentityConfig } from '../../shared/identity/config';
import { localServer } from './helpers';

const HOST = 'https://host.example';
const list = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

/** A raw request, so Host can name another server as a DNS-rebinding page's request would. */
function raw(port: number, path: string, method: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? list : undefined);
  });
}

describe('CORS for browser-based hosts', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let closed: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    s = await localServer({ CORS_ALLOWED_ORIGINS: HOST });
    closed = await localServer();
  });
  afterAll(async () => {
    await s.close();
    await closed.close();
  });

  it('answers a listed origin\'s preflight at the MCP endpoints and exposes the sign-in and session headers', async () => {
    for (const path of ['/v1/mcp', '/v1/mcp/dbapp']) {
      const pre = await fetch(`${s.base}${path}`, { method: 'OPTIONS', headers: { origin: HOST, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(HOST);
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('mcp-protocol-version');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      expect(pre.headers.get('vary')).toContain('Origin');
      const unauth = await fetch(`${s.base}${path}`, { method: 'POST', headers: { origin: HOST, 'content-type': 'application/json' }, body: list });
      expect(unauth.status).toBe(401);
      expect(unauth.headers.get('access-control-allow-origin')).toBe(HOST);
      const exposed = unauth.headers.get('access-control-expose-headers')!.toLowerCase();
      for (const h of ['www-authenticate', 'mcp-session-id', 'mcp-protocol-version']) expect(exposed).toContain(h);
    }
  });

  it('gives an unlisted origin no readable answer, and the local guard still refuses a foreign Origin and any rebinding Host', async () => {
    const port = Number(new URL(s.base).port);
    const evil = await raw(port, '/v1/mcp/dbapp', 'POST', { host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'content-type': 'application/json' });
    expect(evil.status).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    // A listed origin does not open the Host check: a rebinding page's request names its own host.
    for (const host of ['evil.example', `evil.example:${port}`]) expect((await raw(port, '/v1/mcp/dbapp', 'POST', { host, origin: HOST, 'content-type': 'application/json' })).status).toBe(403);
    expect((await raw(port, '/v1/mcp/dbapp', 'OPTIONS', { host: 'evil.example', origin: HOST, 'access-control-request-method': 'POST' })).status).toBe(403);
    // Outside the guard (the OAuth endpoints), an unlisted origin gets an answer the browser will not show it.
    const token = await fetch(`${s.base}/oauth/token`, { method: 'POST', headers: { origin: 'https://evil.example' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'y' }) });
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers the token, registration and revocation endpoints for a listed origin only; none by default', async () => {
    for (const path of ['/oauth/token', '/oauth/register', '/oauth/revoke', '/oauth/register/mcp_x']) {
      const listed = await fetch(`${s.base}${path}`, { method: 'OPTIONS', headers: { origin: HOST, 'access-control-request-method': 'POST' } });
      expect(listed.status).toBe(204);
      expect(listed.headers.get('access-control-allow-origin')).toBe(HOST);
      const byDefault = await fetch(`${closed.base}${path}`, { method: 'OPTIONS', headers: { origin: HOST, 'access-control-request-method': 'POST' } });
      expect(byDefault.headers.get('access-control-allow-origin')).toBeNull();
    }
    // A browser host updates its registration (RFC 7592 PUT) too.
    const update = await fetch(`${s.base}/oauth/register/mcp_x`, { method: 'OPTIONS', headers: { origin: HOST, 'access-control-request-method': 'PUT' } });
    expect(update.headers.get('access-control-allow-methods')).toContain('PUT');
    const reg = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { origin: HOST, 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [`${HOST}/callback`] }) });
    expect(reg.status).toBe(201);
    expect(reg.headers.get('access-control-allow-origin')).toBe(HOST);
  });

  it('serves the sign-in metadata to any origin, on every deployment', async () => {
    for (const base of [s.base, closed.base]) {
      for (const path of ['/.well-known/oauth-protected-resource/v1/mcp/dbapp', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server']) {
        const res = await fetch(`${base}${path}`, { headers: { origin: 'https://anyone.example' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        const pre = await fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin: 'https://anyone.example', 'access-control-request-method': 'GET' } });
        expect(pre.status).toBe(204);
        expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      }
    }
  });

  it('refuses a CORS_ALLOWED_ORIGINS entry that is not an origin', () => {
    expect(() => loadIdentityConfig({ CORS_ALLOWED_ORIGINS: 'https://host.example/' })).toThrow(/not an origin/);
    expect(() => loadIdentityConfig({ CORS_ALLOWED_ORIGINS: 'host.example' })).toThrow(/not an origin/);
    expect(loadIdentityConfig({ CORS_ALLOWED_ORIGINS: `${HOST}, http://localhost:6274` }).corsOrigins).toEqual([HOST, 'http://localhost:6274']);
  });
});
