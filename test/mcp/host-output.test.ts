import { Ajv2020 } from 'ajv/dist/2020.js';
import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { contentFirst, HOST_RULES } from '../bench/host-views';
import { localMcp } from '../helpers/mcp-client';
import { platformCases } from '../helpers/platforms';

/**
 * What a host's model reads (docs/mcp-output.md), through the official SDK client against the local
 * server, on the token cases: by default the compact text under every host rule (structured-first
 * hosts such as Claude Code and VS Code read JSON.stringify(structuredContent) when there is one);
 * a client that asks for the typed result (?format=json) gets it under the listed output schema.
 * The SDK client itself refuses a structuredContent that does not fit the listed schema; ajv
 * checks it again here.
 */
const keyOf = (platform: string) => platformCases.find((p) => p.name === platform)!.keys.owner;
const mcp = localMcp(keyOf('crm'));
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });

const CASES = [
  { platform: 'crm', tool: 'searchDeals', args: { limit: 100 } },
  { platform: 'dbapp', tool: 'listRecords', args: { app_id: DEMO_LEADS_APP_ID, limit: 100 } },
  { platform: 'collab', tool: 'filterItems', args: { app_id: PODIO_DEMO.apps.deals, limit: 100 } },
];

async function listedAndCalled(path: string, c: (typeof CASES)[number]) {
  const client = await mcp.connect(path, keyOf(c.platform));
  const listed = (await client.listTools()).tools.find((t) => t.name === c.tool)!;
  const result = (await client.callTool({ name: c.tool, arguments: c.args })) as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
  expect(result.isError, contentFirst(result)).toBeFalsy();
  return { listed, result };
}

describe.each(CASES)('$platform/$tool: what each host rule\'s model reads', (c) => {
  it('by default, the compact text and nothing else, whatever the rule', async () => {
    const { listed, result } = await listedAndCalled(`/v1/mcp/${c.platform}`, c);
    expect(listed.outputSchema).toBeUndefined();
    expect(result.structuredContent).toBeUndefined();
    const text = contentFirst(result);
    expect(encode(text).length).toBeGreaterThan(500);
    for (const read of Object.values(HOST_RULES)) expect(read(result)).toBe(text);
  });

  it('with ?format=json, the typed result under the listed output schema, beside the same text', async () => {
    const compact = await listedAndCalled(`/v1/mcp/${c.platform}`, c);
    const { listed, result } = await listedAndCalled(`/v1/mcp/${c.platform}?format=json`, c);
    expect(ajv.validate(listed.outputSchema!, result.structuredContent), ajv.errorsText()).toBe(true);
    expect(contentFirst(result)).toBe(contentFirst(compact.result));
    // What made structured-first hosts read the full JSON: several times the text's tokens.
    const structuredFirst = HOST_RULES['structured-first (Claude Code, VS Code)'];
    expect(encode(structuredFirst(result)).length).toBeGreaterThan(2 * encode(contentFirst(result)).length);
  });
});
