import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataset } from '../../infra/twins/batchdata';
import { HUBSPOT_DEMO } from '../../infra/twins/hubspot';
import type { Faults } from '../../infra/twins/kit/faults';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { SHAREFILE_DEMO } from '../../infra/twins/sharefile';
import { VENDOR_CONTRACT_METRIC } from '../../shared/vendor/vendor-contract';
import { harness } from '../helpers/harness';

/**
 * A vendor's success answer that does not fit what the tools read is refused at the client's
 * boundary: INTERNAL_ERROR with reason vendor_contract, the place it broke in the log only, and a
 * metric — never rendered (before, dbapp createWorkspace showed "#x [object Object]").
 */

type Case = { platform: string; tool: string; params: Record<string, unknown>; path: string | RegExp; method: string; body: Record<string, unknown>; member: string; vendor: string };

const deal = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);
const CASES: Case[] = [
  { platform: 'dbapp', tool: 'createWorkspace', params: { name: 'Sales pipeline', type: 'open' }, method: 'POST', path: '/v1/workspace', body: { workspace_id: 'x', org_id: 1, name: { first: 'Sales' }, slug: 's', type: 'open' }, member: 'workspace_id', vendor: 'Tape' },
  { platform: 'crm', tool: 'getDeal', params: { deal_id: deal }, method: 'GET', path: `/crm/v3/objects/deals/${deal}`, body: { id: Number(deal), properties: {} }, member: 'id', vendor: 'HubSpot' },
  { platform: 'collab', tool: 'getItem', params: { item_id: PODIO_DEMO.items.firstDeal }, method: 'GET', path: `/item/${PODIO_DEMO.items.firstDeal}`, body: { item_id: PODIO_DEMO.items.firstDeal, title: ['Deal'] }, member: 'title', vendor: 'Podio' },
  { platform: 'filebox', tool: 'getItem', params: { item_id: SHAREFILE_DEMO.folders.oliviaHome }, method: 'GET', path: /\/Items\(/, body: { 'odata.type': 'ShareFile.Api.Models.Folder', Name: 'Home' }, member: 'Id', vendor: 'ShareFile' },
  // Secondary answers the tools read (labels, views) are checked as the main ones are.
  { platform: 'collab', tool: 'getLabels', params: {}, method: 'GET', path: '/task/label/', body: [{ label_id: 'urgent', text: 'Urgent', color: 'E1E1E1' }] as unknown as Record<string, unknown>, member: '0.label_id', vendor: 'Podio' },
  { platform: 'collab', tool: 'getViews', params: { app_id: PODIO_DEMO.apps.deals }, method: 'GET', path: `/view/app/${PODIO_DEMO.apps.deals}/`, body: [{ view_id: 1, name: { en: 'Open' } }] as unknown as Record<string, unknown>, member: '0.name', vendor: 'Podio' },
  { platform: 'dbapp', tool: 'getAppViews', params: { app_id: 902 }, method: 'GET', path: '/v1/app/902/views', body: { views: [{ view_id: '7', name: 'All', app_id: 902 }], total: 1 }, member: 'views.0.view_id', vendor: 'Tape' },
  { platform: 'realty', tool: 'lookupProperty', params: { property_id: dataset().properties[7]!.id }, method: 'POST', path: '/api/v1/property/lookup/all-attributes', body: { status: { code: 200 }, results: { properties: [{ address: {} }] } }, member: 'results.properties.0._id', vendor: 'BatchData' },
];

describe('vendor answers checked at the client boundary', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  for (const c of CASES) {
    it(`${c.platform}/${c.tool}: a success answer of the wrong shape is INTERNAL_ERROR vendor_contract, the place in the log only`, async () => {
      const h = await harness();
      const lines: string[] = [];
      vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
      (h.twins[c.platform] as unknown as { faults: Faults }).faults.inject({ method: c.method, path: c.path, times: 1, fault: { status: 200, body: c.body } });
      const r = await h.call(`${c.platform}/${c.tool}`, c.params);
      expect(r.status).toBe(500);
      expect(r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { reason: 'vendor_contract', vendor: c.vendor } });
      expect(r.body.error.message).toContain(`${c.vendor} answered in a shape this service does not recognise`);
      expect(r.body.error.message).not.toContain(c.member);
      expect(r.text).not.toContain('[object Object]');
      // A write may have happened: the caller is told to look before retrying.
      expect(r.body.error.message.includes('look before you retry')).toBe(c.method !== 'GET');
      const logged = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'vendor_contract');
      expect(logged).toMatchObject({ level: 'error', platform: c.platform, vendor: c.vendor, member: c.member, endpoint: expect.stringMatching(new RegExp(`^${c.method} /`)) });
      // The next answer, unfaulted, fits.
      expect((await h.call(`${c.platform}/${c.tool}`, c.params)).body.success).toBe(true);
    });
  }

  it('counts each refusal as a metric by platform when metrics are on', async () => {
    vi.stubEnv('METRICS', 'on');
    const h = await harness();
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const c = CASES[0]!;
    (h.twins[c.platform] as unknown as { faults: Faults }).faults.inject({ method: c.method, path: c.path, times: 1, fault: { status: 200, body: c.body } });
    await h.call(`${c.platform}/${c.tool}`, c.params);
    const doc = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'vendor_contract');
    expect(doc).toMatchObject({ platform: 'dbapp', [VENDOR_CONTRACT_METRIC]: 1, member: 'workspace_id' });
    expect(doc._aws.CloudWatchMetrics[0]).toEqual({ Namespace: 'ToolExecutionService', Dimensions: [['platform']], Metrics: [{ Name: VENDOR_CONTRACT_METRIC, Unit: 'Count' }] });
  });
});
