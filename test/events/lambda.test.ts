import { describe, expect, it } from 'vitest';
import { crm } from '../../functions/crm';
import { dbapp } from '../../functions/dbapp';
import { HUBSPOT_APP, PORTAL_ID, signV3 } from '../../infra/twins/hubspot';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';
import { CRM_APP_ENV } from './helpers';

/** The receiver as deployed: API Gateway HTTP API (v2) events through the platform's Lambda handler. */
describe('the receiver on Lambda', () => {
  it('verifies a HubSpot v3 signature over the URL as API Gateway delivers it, and refuses a forged one', async () => {
    const handler = lambdaHandler(crm, { store: new MemoryStore(), config: loadConfig(CRM_APP_ENV) });
    const path = '/v1/events/crm/app';
    const probe = httpApiV2Event({ method: 'POST', path });
    const url = `https://${probe.requestContext.domainName}${path}`;
    const body = JSON.stringify([{ eventId: 1, subscriptionId: 1, portalId: PORTAL_ID, appId: Number(HUBSPOT_APP.appId), occurredAt: Date.now(), subscriptionType: 'deal.creation', objectId: 5 }]);
    const ts = String(Date.now());
    const signed = httpApiV2Event({ method: 'POST', path, body, headers: { 'content-type': 'application/json', 'X-HubSpot-Signature-v3': signV3(HUBSPOT_APP.clientSecret, 'POST', url, body, ts), 'X-HubSpot-Request-Timestamp': ts } });
    const ok = (await handler(signed, lambdaContext())) as { statusCode: number; body: string };
    expect(ok.statusCode, ok.body).toBe(200);
    expect(JSON.parse(ok.body).data).toEqual({ stored: 0, duplicates: 0 });
    const forged = httpApiV2Event({ method: 'POST', path, body, headers: { 'content-type': 'application/json', 'X-HubSpot-Signature-v3': signV3('guess', 'POST', url, body, ts), 'X-HubSpot-Request-Timestamp': ts } });
    const refused = (await handler(forged, lambdaContext())) as { statusCode: number; body: string };
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body).error.details.reason).toBe('bad_signature');
  });

  it('answers an unknown subscription 404 without a key (vendors send none)', async () => {
    const handler = lambdaHandler(dbapp, { store: new MemoryStore(), config: loadConfig({}) });
    const res = (await handler(httpApiV2Event({ method: 'POST', path: '/v1/events/dbapp/sub_unknown000000', body: '{}' }), lambdaContext())) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body).error.details.reason).toBe('unknown_subscription');
  });
});
