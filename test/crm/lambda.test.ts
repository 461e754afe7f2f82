import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { crm } from '../../functions/crm';
import { createHubSpotTwin, HUBSPOT_DEMO, SANDBOX_KEYS } from '../../infra/twins/hubspot';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';

/** Every crm tool group through the Lambda entry (API Gateway v2 events) against the twin. */
describe('crm tools through the Lambda handler', () => {
  const twin = createHubSpotTwin();
  const handler = lambdaHandler(crm, { fetchFor: { crm: twin.fetch }, store: new MemoryStore(), config: loadConfig({}) });
  async function call(tool: string, params: unknown, json = true) {
    const res = (await handler(
      httpApiV2Event({
        method: 'POST',
        path: `/v1/tools/crm/${tool}`,
        ...(json ? { query: { format: 'json' } } : {}),
        headers: { Authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(params),
      }),
      lambdaContext(),
    )) as APIGatewayProxyStructuredResultV2;
    return { status: res.statusCode, body: JSON.parse(String(res.body)) as { success: boolean; data: any; error?: any } };
  }

  it('the five record tools of each object type', async () => {
    const values = {
      Deal: { dealname: 'Lambda deal', amount: 100 },
      Contact: { email: 'lambda@l.example', firstname: 'Lam' },
      Company: { name: 'Lambda Inc' },
      Ticket: { subject: 'Lambda ticket' },
    };
    for (const [kind, v] of Object.entries(values)) {
      const made = await call(`create${kind}`, { values: v });
      expect(made.status, kind).toBe(200);
      const id = made.body.data.id as string;
      const key = `${kind.toLowerCase()}_id`;
      expect((await call(`get${kind}`, { [key]: id }, false)).body.data).toMatch(new RegExp(`^#${id} `));
      expect((await call(`update${kind}`, { [key]: id, values: { crm_owner_id: '102' } })).body.data).toMatchObject({ id, updated: true });
      const plural = kind === 'Company' ? 'Companies' : `${kind}s`;
      const found = await call(`search${plural}`, { filter_groups: [{ filters: [{ propertyName: 'crm_object_id', operator: 'EQ', value: id }] }] });
      expect(found.body.data.results.map((r: { id: string }) => r.id)).toEqual([id]);
      expect((await call(`delete${kind}`, { [key]: id })).body.data).toEqual({ deleted: true, [`${kind.toLowerCase()}Id`]: id });
    }
  });

  it('pipelines, properties and associations', async () => {
    expect((await call('getPipelines', { object_type: 'tickets' })).body.data.pipelines[0].label).toBe('Support Pipeline');
    expect((await call('getProperties', { object_type: 'companies' })).body.data.count).toBeGreaterThan(10);
    expect((await call('createProperty', { object_type: 'companies', name: 'lambda_flag', label: 'Flag', type: 'bool', field_type: 'booleancheckbox' })).body.data.created).toBe(true);
    const contact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    const deal = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);
    expect((await call('createAssociation', { from_object_type: 'contacts', from_object_id: contact, to_object_type: 'deals', to_object_id: deal })).body.data.associated).toBe(true);
    const links = await call('getAssociations', { from_object_type: 'contacts', object_id: contact, to_object_type: 'deals' });
    expect(links.body.data.results.map((l: { toObjectId: number }) => l.toObjectId)).toContain(Number(deal));
  });
});
