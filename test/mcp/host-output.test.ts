import { Ajv2020 } from 'ajv/dist/2020.js';
import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { contentFirst, structuredFirst } from '../bench/host-views';
import { localMcp } from '../helpers/mcp-client';
import { platformCases } from '../helpers/platforms';

/**
 * What a host's model reads (docs/mcp-output.md), through the official SDK client against the local
 * server: structured-first hosts (Claude Code, VS Code) read JSON.stringify(structuredContent),
 * content-first ones (claude.ai, ChatGPT) the text. On the token cases both are the compact text;
 * a client that asks for the typed result (?format=json) gets it. The SDK client itself refuses a
 * structuredContent that does not fit the listed output schema; ajv checks it again here.
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
  const result = await client.callTool({ name: c.tool, arguments: c.args });
  expect(result.isError, contentFirst(result as never)).toBeFalsy();
  return { listed, result: result as { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> } };
}

describe.each(CASES)('$platform/$tool: what each host rule\'s model reads', (c) => {
  it('by default, the compact text in both rules, under the listed output schema', async () => {
    const { listed, result } = await listedAndCalled(`/v1/mcp/${c.platform}`, c);
    expect(ajv.validate(listed.outputSchema!, result.structuredContent), ajv.errorsText()).toBe(true);
    const text = encode(contentFirst(result)).length;
    const structured = encode(structuredFirst(result)).length;
    expect(text).toBeGreaterThan(500);
    // JSON string escapes (line breaks, quotes) cost a few tokens; the content is the text's.
    expect(structured / text).toBeLessThan(1.05);
  });

  it('with ?format=json, the typed result under the tool\'s generated schema, beside the same text', async () => {
    const compact = await listedAndCalled(`/v1/mcp/${c.platform}`, c);
    const { listed, result } = await listedAndCalled(`/v1/mcp/${c.platform}?format=json`, c);
    expect(listed.outputSchema).not.toEqual(compact.listed.outputSchema);
    expect(ajv.validate(listed.outputSchema!, result.structuredContent), ajv.errorsText()).toBe(true);
    expect(result.structuredContent).not.toHaveProperty('text');
    expect(contentFirst(result)).toBe(contentFirst(compact.result));
  });
});
