import { describe, expect, it } from 'vitest';
import { PODIO_DEMO } from '../../infra/twins/podio';
import type { Resolver } from '../../shared/vendor/address-rules';
import { harness } from '../helpers/harness';

/**
 * Webhook targets are held to the rules of fetched URLs (shared/vendor/webhook-target.ts checkTarget) on every
 * tool that registers one, although the vendor, not the service, will call them: the name is
 * resolved and every address checked, credentials are refused, listed local receivers let in.
 */
const HOOK_TOOLS = [
  { id: 'dbapp/createWebhook', params: { app_id: 902, event_type: 'record.create' }, twin: { dbapp: { hookTargets: 'any' } } },
  { id: 'collab/createHook', params: { ref_type: 'app', ref_id: PODIO_DEMO.apps.deals, type: 'item.create' }, twin: { collab: { hookTargets: 'any' } } },
] as const;

/** A DNS of fixed answers; unknown names do not exist. */
const dns = (table: Record<string, string[]>): Resolver => async (host) => {
  const addresses = table[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const DNS = dns({
  'hooks.example.com': ['93.184.215.14'],
  'loop.example.com': ['127.0.0.1'],
  'intranet.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'split.example.com': ['93.184.215.14', '192.168.1.20'],
  'receiver.internal': ['10.9.9.9'],
});

describe.each(HOOK_TOOLS.map((t) => [t.id, t] as const))('%s: webhook target', (id, tool) => {
  const platform = id.split('/')[0]!;
  const setup = (env: Record<string, string> = {}) => harness({ env, resolve: DNS, twins: tool.twin });
  const vendorWrites = (sent: { method: string }[]) => sent.filter((r) => r.method !== 'GET');

  it.each([
    ['https://loop.example.com/hook', '127.0.0.1', 'loopback'],
    ['https://intranet.example.com/hook', '10.1.2.3', 'private'],
    ['https://metadata.example.com/hook', '169.254.169.254', 'metadata'],
    ['https://split.example.com/hook', '192.168.1.20', 'private'],
  ])('refuses %s (resolves to %s): INVALID_PARAMETER naming url, nothing sent', async (url, address, word) => {
    const h = await setup();
    const sent = h.recordRequests(platform);
    const r = await h.call(id, { ...tool.params, url });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'url', reason: 'address', address } });
    expect(r.body.error.message).toContain(word);
    expect(vendorWrites(sent)).toEqual([]);
  });

  it.each([
    ['https://user:secret@hooks.example.com/hook', 'credentials'],
    ['https://token@hooks.example.com/hook', 'credentials'],
    ['http://hooks.example.com/hook', 'scheme'],
    ['https://hooks.example.com:8443/hook', 'port'],
    ['https://nowhere.example.com/hook', 'dns'],
    ['https://[::ffff:127.0.0.1]/hook', 'address'],
  ])('refuses %s (%s)', async (url, reason) => {
    const h = await setup();
    const sent = h.recordRequests(platform);
    const r = await h.call(id, { ...tool.params, url });
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'url', reason } });
    expect(vendorWrites(sent)).toEqual([]);
  });

  it('accepts a public https target and registers it as written', async () => {
    const h = await setup();
    const sent = h.recordRequests(platform);
    const r = await h.call(id, { ...tool.params, url: 'https://hooks.example.com/hook' });
    expect(r.status).toBe(200);
    expect(vendorWrites(sent)).toHaveLength(1);
    expect(JSON.stringify(vendorWrites(sent)[0])).toContain('https://hooks.example.com/hook');
  });

  it('lets in a local receiver listed in ALLOW_HTTP_HOSTS (http, any port, private address)', async () => {
    const h = await setup({ ALLOW_HTTP_HOSTS: 'receiver.internal' });
    const r = await h.call(id, { ...tool.params, url: 'http://receiver.internal:8080/hook' });
    expect(r.status).toBe(200);
    const strict = await setup();
    expect((await strict.call(id, { ...tool.params, url: 'http://receiver.internal:8080/hook' })).body.error.details).toMatchObject({ parameter: 'url', reason: 'scheme' });
  });
});
