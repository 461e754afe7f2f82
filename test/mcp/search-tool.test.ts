import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { localServer } from '../identity/helpers';

const ADMIN = 'adm_test_credential';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/**
 * search_tools is a registered tool that `execute` runs like every other, over MCP and REST alike
 * (shared/catalog/search-tool.ts): the same validation and messages as GET /v1/tools/search, the
 * rate limit, the audit trail, and only what the key's policy and the endpoint serve.
 */
describe('search_tools through execute', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let key: string;

  beforeAll(async () => {
    s = await localServer();
    key = (await s.createKey('acme-search', { platforms: ['crm', 'dbapp'] })).key;
  });
  afterAll(() => s.close());

  /** One tools/call of search_tools on an MCP endpoint (2026-07-28): the JSON-RPC result. */
  const mcpSearch = (path: string, args: unknown, k = key) =>
    fetch(`${s.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: args, _meta: META } }),
    }).then(async (r) => ((await r.json()) as any).result);
  const restSearch = (query: string, k = key) => s.api('GET', `/v1/tools/search?${query}`, { key: k });

  it('refuses bad input with the very envelope GET /v1/tools/search answers', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ query: '' }, 'query=', 'query'],
      [{ query: '   ' }, 'query=%20%20%20', 'query'],
      [{ query: 'x'.repeat(501) }, `query=${'x'.repeat(501)}`, 'query'],
      [{ query: 'x', limit: 0 }, 'query=x&limit=0', 'limit'],
      [{ query: 'x', limit: 51 }, 'query=x&limit=51', 'limit'],
      [{ query: 'x', limit: 2.5 }, 'query=x&limit=2.5', 'limit'],
      [{ query: 'x', platform: 'nowhere' }, 'query=x&platform=nowhere', 'platform'],
    ];
    for (const [args, query, parameter] of cases) {
      const mcp = await mcpSearch('/v1/mcp', args);
      const rest = await restSearch(query);
      expect(mcp.isError, query).toBe(true);
      expect(rest.status, query).toBe(400);
      expect(rest.body.error.details.parameter, query).toBe(parameter);
      expect(JSON.parse(mcp.content[0].text), query).toEqual(rest.body);
    }
  });

  it('finds only what the key may call and the endpoint serves, named as called there', async () => {
    const combined = await mcpSearch('/v1/mcp?format=json', { query: 'create a deal', limit: 10 });
    const names = combined.structuredContent.tools.map((t: { name: string }) => t.name) as string[];
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /^(crm|dbapp)_/.test(n))).toBe(true);
    const readOnly = await mcpSearch('/v1/mcp?format=json&read_only=true', { query: 'create a deal', limit: 10 });
    expect(readOnly.structuredContent.tools.every((t: { annotations: { readOnly: boolean } }) => t.annotations.readOnly)).toBe(true);
    const deferred = await mcpSearch('/v1/mcp/crm?profile=deferred', { query: 'create a deal', limit: 3 });
    expect(deferred.content[0].text).toMatch(/^createDeal \(write\)/);
    expect(deferred.content[0].text).toContain('parameters: {');
    // REST: the same ranking, the same policy.
    const rest = await restSearch('query=create%20a%20deal&limit=10');
    expect(rest.body.data.tools.map((t: { platform: string; tool: string }) => `${t.platform}_${t.tool}`)).toEqual(names);
  });

  it('is in the audit trail as a read of the service, on each surface, and no query text is kept', async () => {
    await mcpSearch('/v1/mcp', { query: 'audited mcp search phrase' });
    await restSearch('query=audited%20rest%20search%20phrase');
    const audit = await s.api('GET', '/v1/admin/audit?tenant=acme-search&tool=search_tools&limit=50', { key: ADMIN });
    const records = audit.body.data.records as Record<string, unknown>[];
    expect(records.filter((r) => r.outcome === 'OK').map((r) => r.surface)).toEqual(expect.arrayContaining(['mcp', 'rest']));
    expect(records.find((r) => r.surface === 'mcp')).toMatchObject({ kind: 'call', platform: '(service)', tool: 'search_tools', access: 'read', vendor_calls: 0, args_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(records.some((r) => r.outcome === 'INVALID_PARAMETER')).toBe(true);
    expect(JSON.stringify(records)).not.toContain('audited');
  });

  it('is rate limited as every call', async () => {
    const limited = await localServer({ RATE_LIMIT_MAX: '2' });
    try {
      const search = (path: string) =>
        fetch(`${limited.base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_tools' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'list records' }, _meta: META } }),
        }).then(async (r) => ((await r.json()) as any).result);
      const answers = [await search('/v1/mcp'), await search('/v1/mcp'), await search('/v1/mcp')];
      expect(answers.map((a) => a.isError === true)).toEqual([false, false, true]);
      expect(JSON.parse(answers[2].content[0].text).error.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
