/**
 * A second, independent judge of the HubSpot twin: HubSpot's own MCP server (@hubspot/mcp-server,
 * unchanged, as a child process over stdio) pointed at the twin with its BASE_URL_OVERRIDE. Its
 * object, batch, property and association tools must work against the twin.
 */
import { createRequire } from 'node:module';
import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubSpotTwin, HUBSPOT_DEMO, SANDBOX_KEYS } from '../../infra/twins/hubspot';
import { linksOf } from '../../infra/twins/hubspot/state';
import { loopbackServer } from '../helpers/loopback';

const twin = createHubSpotTwin({ rateLimit: { limit: 100_000, windowMs: 10_000 } });
const base = loopbackServer(getRequestListener(twin.app.fetch));
const serverScript = createRequire(import.meta.url).resolve('@hubspot/mcp-server/dist/index.js');

let client: Client;
beforeAll(async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript],
    env: { PATH: process.env.PATH ?? '', BASE_URL_OVERRIDE: base(), PRIVATE_APP_ACCESS_TOKEN: SANDBOX_KEYS.owner },
    stderr: 'ignore',
  });
  client = new Client({ name: 'twin-judge', version: '1.0.0' });
  await client.connect(transport);
}, 30_000);
afterAll(async () => {
  await client?.close();
});

/** Calls a tool; the server answers the vendor's JSON as text, or an error text. */
async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
  const text = r.content.map((c) => c.text).join('\n');
  if (r.isError) throw new Error(`${name}: ${text}`);
  return JSON.parse(text);
}

describe('@hubspot/mcp-server against the HubSpot twin', () => {
  it('lists, searches, batch-creates, batch-reads and batch-updates objects', async () => {
    const list = await tool('hubspot-list-objects', { objectType: 'deals', limit: 5, properties: ['dealname', 'amount'] });
    expect(list.results).toHaveLength(5);
    expect(list.paging.next.after).toBeDefined();
    const found = await tool('hubspot-search-objects', {
      objectType: 'companies', filterGroups: [{ filters: [{ propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'acme' }] }], properties: ['name'], limit: 10,
    });
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.every((r: { properties: { name: string } }) => /acme/i.test(r.properties.name))).toBe(true);
    const made = await tool('hubspot-batch-create-objects', {
      objectType: 'contacts',
      inputs: [{ properties: { email: 'mcp1@judge.example', firstname: 'Mcp' } }, { properties: { email: 'mcp2@judge.example', firstname: 'Mcp' } }],
    });
    expect(made.status).toBe('COMPLETE');
    const ids = made.results.map((r: { id: string }) => r.id);
    const read = await tool('hubspot-batch-read-objects', { objectType: 'contacts', inputs: ids.map((id: string) => ({ id })), properties: ['email'] });
    expect(read.results.map((r: { properties: { email: string } }) => r.properties.email).sort()).toEqual(['mcp1@judge.example', 'mcp2@judge.example']);
    const updated = await tool('hubspot-batch-update-objects', { objectType: 'contacts', inputs: ids.map((id: string) => ({ id, properties: { lifecyclestage: 'lead' } })) });
    expect(updated.results.every((r: { properties: { lifecyclestage: string } }) => r.properties.lifecyclestage === 'lead')).toBe(true);
  });

  it('lists and creates associations', async () => {
    const contact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    const listed = await tool('hubspot-list-associations', { objectType: 'contacts', objectId: contact, toObjectType: 'companies' });
    expect(listed.results[0].associationTypes.map((t: { typeId: number }) => t.typeId)).toEqual([1, 279]);
    const deal = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts + 1);
    const created = await tool('hubspot-batch-create-associations', {
      fromObjectType: 'deals', toObjectType: 'contacts', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }],
      inputs: [{ from: { id: deal }, to: { id: contact } }],
    });
    expect(created.status).toBe('COMPLETE');
    expect(linksOf(twin.state, 'deals', deal, 'contacts').map((l) => l.toId)).toContain(contact);
  });

  it('lists, reads, creates and updates properties', async () => {
    const all = await tool('hubspot-list-properties', { objectType: 'tickets' });
    expect(all.results.map((p: { name: string }) => p.name)).toContain('hs_pipeline_stage');
    const one = await tool('hubspot-get-property', { objectType: 'deals', propertyName: 'dealstage' });
    expect(one.label).toBe('Deal Stage');
    const made = await tool('hubspot-create-property', {
      objectType: 'companies', name: 'mcp_segment', label: 'Segment', type: 'enumeration', fieldType: 'select', groupName: 'companyinformation',
      options: [{ label: 'SMB', value: 'smb' }, { label: 'Enterprise', value: 'ent' }],
    });
    expect(made).toMatchObject({ name: 'mcp_segment', type: 'enumeration' });
    const changed = await tool('hubspot-update-property', { objectType: 'companies', propertyName: 'mcp_segment', label: 'Market segment' });
    expect(changed.label).toBe('Market segment');
    expect(twin.state.properties.companies.get('mcp_segment')!.label).toBe('Market segment');
  });
});
