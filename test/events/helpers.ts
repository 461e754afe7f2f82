import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { harness, type HarnessOptions } from '../helpers/harness';
import type { Store } from '../../shared/store';
import { eventsConfigOf, receiverUrl } from '../../shared/events/receiver';
import { Inbox } from '../../shared/events/inbox';
import type { Subscription } from '../../shared/core/event-model';
import type { Runtime } from '../../shared/core/runtime';
import { HUBSPOT_APP } from '../../infra/twins/hubspot';
import { SHAREFILE_WEBHOOK_KEYS, sfWebhookSignature } from '../../infra/twins/sharefile';

/** The HubSpot app the crm twin knows, as a deployment configures its own. */
export const CRM_APP_ENV = { CRM_EVENTS_APP_ID: HUBSPOT_APP.appId, CRM_EVENTS_DEVELOPER_KEY: HUBSPOT_APP.developerKey, CRM_EVENTS_CLIENT_SECRET: HUBSPOT_APP.clientSecret };
/** The ShareFile twin's webhook signature key, as a deployment configures its own. */
export const FILEBOX_SIGNING_ENV = { FILEBOX_EVENTS_SIGNATURE_KEY: SHAREFILE_WEBHOOK_KEYS.primary };

/**
 * The secrets of the subscriptions made in this process, by id, as subscribeEvents handed them to
 * the vendor: the store keeps only their hashes, so a test that posts as the vendor learns them here.
 */
const secrets = new Map<string, string>();
const made = Inbox.newSubscription.bind(Inbox);
Inbox.newSubscription = (...args) => {
  const sub = made(...args);
  secrets.set(sub.id, sub.secret!);
  return sub;
};

/** The receiver URL a vendor was given for a subscription, its secret included. */
export const deliveryUrl = (rt: Pick<Runtime, 'config'>, sub: Subscription) => receiverUrl(eventsConfigOf(rt), { ...sub, secret: secrets.get(sub.id) }, true);

/**
 * A subscription as one saved before deliveries were checked with the vendor (no kept credential):
 * the URL secret alone admits its deliveries. For tests of storage under load and duplicates, whose
 * synthetic events name records the twin does not hold; the vendor check has its own tests
 * (test/events/verify.test.ts).
 */
export async function withoutVendorCheck(store: Store, id: string): Promise<Subscription> {
  const inbox = new Inbox(store, 3600);
  const { verify_with: _v, ...sub } = (await inbox.get(id))!;
  await inbox.save(sub);
  return sub;
}

/** A ShareFile delivery as the twin signs it (both keys), or as `keys` say. */
export function sfSigned(body: string, keys: { primary?: string; secondary?: string } = SHAREFILE_WEBHOOK_KEYS) {
  return {
    headers: {
      'content-type': 'application/json',
      ...(keys.primary ? { 'SF-WEBHOOK-PRIMARY-SIGNATURE': sfWebhookSignature(keys.primary, body) } : {}),
      ...(keys.secondary ? { 'SF-WEBHOOK-SECONDARY-SIGNATURE': sfWebhookSignature(keys.secondary, body) } : {}),
    },
    body,
  };
}

/**
 * The service over real HTTP on 127.0.0.1 (the receiver must be reachable by the twins' webhook
 * POSTs, as the vendors reach a deployment), with every twin delivering to any host.
 */
export async function eventsHarness(opts: { store?: Store; env?: Record<string, string>; twins?: HarnessOptions['twins'] } = {}) {
  const twins = {
    dbapp: { hookTargets: 'any', demo: false, ...opts.twins?.dbapp },
    collab: { hookTargets: 'any', ...opts.twins?.collab },
    crm: { hookTargets: 'any', ...opts.twins?.crm },
    filebox: { hookTargets: 'any', ...opts.twins?.filebox },
  };
  const h = await harness({ ...(opts.store ? { store: opts.store } : {}), env: { ALLOW_HTTP_HOSTS: '127.0.0.1', ...CRM_APP_ENV, ...FILEBOX_SIGNING_ENV, ...opts.env }, twins });
  const server: ServerType = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  eventsConfigOf(h.rt).baseUrl = base;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  /** A tool call, JSON answer. */
  const json = async (tool: string, params: unknown = {}) => h.call(tool, params, { query: 'format=json' });
  return { ...h, base, close, json };
}
