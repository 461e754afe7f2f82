import { Ajv2020 } from 'ajv/dist/2020.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { TYPED_OUTPUT_EXTENSION } from '../../shared/mcp/revision';
import { localServer } from '../identity/helpers';

/**
 * Typed output chosen per request by a 2026-07-28 client (docs/mcp-output.md): the revision has no
 * capability for it, so the server offers its own extension; a client that declares it in its
 * capabilities gets `outputSchema` in tools/list and `structuredContent` (valid against it) in
 * results, on the default endpoint; one that does not keeps the compact text alone. Judged through
 * the official v2 client, which also refuses a result that does not fit the listed schema.
 */
let s: Awaited<ReturnType<typeof localServer>>;
const clients: Client[] = [];
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });

beforeAll(async () => {
  s = await localServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await s.close();
});

async function connect(typed: boolean): Promise<Client> {
  const client = new Client({ name: 'typed-host', version: '2.0.0' }, { capabilities: typed ? { extensions: { [TYPED_OUTPUT_EXTENSION]: {} } } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } } }));
  clients.push(client);
  return client;
}

const args = { app_id: DEMO_LEADS_APP_ID, limit: 5 };

describe('typed output by declared capability (2026-07-28)', () => {
  it('server/discover offers the extension', async () => {
    const client = await connect(false);
    expect(client.getProtocolEra()).toBe('modern');
    expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions).toHaveProperty([TYPED_OUTPUT_EXTENSION]);
  });

  it('declared: outputSchema in tools/list and conforming structuredContent beside the same text', async () => {
    const plain = await connect(false);
    const typed = await connect(true);
    const plainTool = (await plain.listTools()).tools.find((t) => t.name === 'listRecords')!;
    const typedTool = (await typed.listTools()).tools.find((t) => t.name === 'listRecords')!;
    expect(plainTool.outputSchema).toBeUndefined();
    expect(typedTool.outputSchema).toMatchObject({ type: 'object' });
    const text = (await plain.callTool({ name: 'listRecords', arguments: args })) as any;
    const data = (await typed.callTool({ name: 'listRecords', arguments: args })) as any;
    expect(text.structuredContent).toBeUndefined();
    expect(data.isError).toBeFalsy();
    expect(ajv.validate(typedTool.outputSchema!, data.structuredContent), ajv.errorsText()).toBe(true);
    expect(data.content[0].text).toBe(text.content[0].text);
  });

  it('a raw request decides per request: the same URL answers text to one that does not declare it', async () => {
    const list = (capabilities: Record<string, unknown>) =>
      fetch(`${s.base}/v1/mcp/dbapp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities } } }),
      }).then(async (r) => (await r.json()) as any);
    const typed = await list({ extensions: { [TYPED_OUTPUT_EXTENSION]: {} } });
    const plain = await list({});
    expect(typed.result.tools.every((t: { outputSchema?: unknown }) => t.outputSchema !== undefined)).toBe(true);
    expect(plain.result.tools.some((t: { outputSchema?: unknown }) => t.outputSchema !== undefined)).toBe(false);
    expect(typed.result.tools.map((t: { name: string }) => t.name)).toEqual(plain.result.tools.map((t: { name: string }) => t.name));
    // Anything but an object for the extension's settings is no declaration.
    const odd = await list({ extensions: { [TYPED_OUTPUT_EXTENSION]: true } });
    expect(odd.result.tools.some((t: { outputSchema?: unknown }) => t.outputSchema !== undefined)).toBe(false);
  });
});
