import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryUrl, eventsHarness, sfSigned } from './helpers';
import { HUBSPOT_APP, type HubSpotTwin } from '../../infra/twins/hubspot';
import { SHAREFILE_DEMO, SHAREFILE_WEBHOOK_KEYS } from '../../infra/twins/sharefile';
import { Inbox } from '../../shared/events/inbox';
import { eventsConfigOf } from '../../shared/events/receiver';
import { SANDBOX_KEYS } from '../helpers/harness';
import { mockSsm } from '../helpers/ssm-mock';

/**
 * Deployed, the inbox's secrets are SSM SecureStrings named by `…_PARAMETER` (serverless.yml):
 * HubSpot's developer key and client secret (the v3 signatures), ShareFile's signature key. Each
 * is read on first use and kept for the container's life; a parameter that cannot be read answers
 * the vendor 500 (it retries) and stores nothing.
 */
const PARAMS = {
  '/tes/test/crm/events-developer-key': HUBSPOT_APP.developerKey,
  '/tes/test/crm/events-client-secret': HUBSPOT_APP.clientSecret,
  '/tes/test/filebox/events-signature-key': SHAREFILE_WEBHOOK_KEYS.primary,
};
const ssm = mockSsm((s) => {
  for (const [Name, Value] of Object.entries(PARAMS)) s.on(GetParameterCommand, { Name }).resolves({ Parameter: { Name, Type: 'SecureString', Value } });
  s.on(GetParameterCommand, { Name: '/tes/test/missing' }).rejects(Object.assign(new Error('not there'), { name: 'ParameterNotFound' }));
});
const reads = (name: string) => ssm.commandCalls(GetParameterCommand).filter((c) => c.args[0].input.Name === name).length;

type H = Awaited<ReturnType<typeof eventsHarness>>;
let h: H;
beforeAll(async () => {
  h = await eventsHarness({
    env: {
      // No secret value in the environment: only where each lives.
      CRM_EVENTS_DEVELOPER_KEY: '',
      CRM_EVENTS_CLIENT_SECRET: '',
      FILEBOX_EVENTS_SIGNATURE_KEY: '',
      CRM_EVENTS_DEVELOPER_KEY_PARAMETER: '/tes/test/crm/events-developer-key',
      CRM_EVENTS_CLIENT_SECRET_PARAMETER: '/tes/test/crm/events-client-secret',
      FILEBOX_EVENTS_SIGNATURE_KEY_PARAMETER: '/tes/test/filebox/events-signature-key',
    },
  });
});
afterAll(() => h.close());

describe('event inbox secrets from SSM Parameter Store', () => {
  it('HubSpot: the developer key subscribes and the client secret verifies 20 signed deliveries, each parameter read once', async () => {
    expect(eventsConfigOf(h.rt).apps.crm).toEqual({ appId: HUBSPOT_APP.appId, developerKey: { parameter: '/tes/test/crm/events-developer-key' }, clientSecret: { parameter: '/tes/test/crm/events-client-secret' } });
    const sub = await h.json('crm/subscribeEvents', { object_types: ['contacts'], events: ['creation'] });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const hubspot = h.twin<HubSpotTwin>('crm');
    for (let i = 0; i < 20; i++) {
      const res = await hubspot.fetch('https://api.hubapi.com/crm/v3/objects/contacts', {
        method: 'POST',
        headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
        body: JSON.stringify({ properties: { email: `ssm${i}@example.com` } }),
      });
      expect(res.status).toBe(201);
      await hubspot.webhooks.idle(); // one delivery each: 20 verifications
    }
    const listed = await h.json('crm/listEvents', { subscription_id: sub.body.data.subscription_id, limit: 200 });
    expect(listed.body.data.events).toHaveLength(20);
    expect(reads('/tes/test/crm/events-developer-key')).toBe(1);
    expect(reads('/tes/test/crm/events-client-secret')).toBe(1);
  });

  it('ShareFile: the signature key from SSM verifies payloads, read once; a forged one is still refused', async () => {
    const r = await h.json('filebox/subscribeEvents', { folder_id: SHAREFILE_DEMO.folders.oliviaHome, events: ['File.Upload'] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const s = (await new Inbox(h.store, 3600).get(r.body.data.subscription_id))!;
    const url = deliveryUrl(h.rt, s);
    const body = (item: string) => JSON.stringify({ WebhookSubscriptionId: s.vendor.webhook_subscription_id, Event: { Timestamp: new Date().toISOString(), OperationName: 'Upload', ResourceType: 'File', Resource: { Id: item, Parent: { Id: 'fo1' } } } });
    for (let i = 0; i < 5; i++) expect((await fetch(url, { method: 'POST', ...sfSigned(body(`fi-ssm-${i}`), { primary: SHAREFILE_WEBHOOK_KEYS.primary }) })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', ...sfSigned(body('fi-forged'), { primary: 'guess' }) })).status).toBe(401);
    expect(reads('/tes/test/filebox/events-signature-key')).toBe(1);
  });

  it('a parameter that cannot be read: the vendor is answered 500 (it retries), the message names the parameter, nothing is stored', async () => {
    const keys = eventsConfigOf(h.rt).signatureKeys.filebox!;
    const r = await h.json('filebox/subscribeEvents', { folder_id: SHAREFILE_DEMO.folders.oliviaHome, events: ['File.Delete'] });
    const s = (await new Inbox(h.store, 3600).get(r.body.data.subscription_id))!;
    const saved = keys.primary;
    keys.primary = { parameter: '/tes/test/missing' };
    try {
      const body = JSON.stringify({ WebhookSubscriptionId: s.vendor.webhook_subscription_id, Event: { Timestamp: new Date().toISOString(), OperationName: 'Delete', ResourceType: 'File', Resource: { Id: 'fi-x', Parent: { Id: 'fo1' } } } });
      const res = await fetch(deliveryUrl(h.rt, s), { method: 'POST', ...sfSigned(body) });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(text).toContain('/tes/test/missing');
      expect(text).not.toContain(SHAREFILE_WEBHOOK_KEYS.primary);
      const listed = await h.json('filebox/listEvents', { subscription_id: s.id });
      expect(listed.body.data.events).toEqual([]);
    } finally {
      keys.primary = saved;
    }
  });
});
