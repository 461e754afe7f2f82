import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { eventsHarness, deliveryUrl, withoutVendorCheck } from './helpers';
import { SANDBOX_KEYS } from '../helpers/harness';

const sqs = mockClient(SQSClient);
const bus = mockClient(EventBridgeClient);
afterEach(() => {
  sqs.reset();
  bus.reset();
});

type H = Awaited<ReturnType<typeof eventsHarness>>;

/** A dbapp subscription and its receiver URL, on a harness with `env`. */
async function setup(env: Record<string, string>) {
  const h = await eventsHarness({ env });
  const res = await h.tape.fetch('https://api.tapeapp.com/v1/app', {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: 1, name: 'Fan', fields: [{ field_type: 'single_text', config: { label: 'Title' } }] }),
  });
  const { app_id } = (await res.json()) as { app_id: number };
  const sub = await h.json('dbapp/subscribeEvents', { app_id, event_types: ['record.update'] });
  const stored = await withoutVendorCheck(h.store, sub.body.data.subscription_id);
  const url = deliveryUrl(h.rt, stored);
  const deliver = (revision: number) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hook_id: 1, record_id: 3, revision_id: revision, type: 'record.update' }) });
  return { h, deliver, id: stored.id };
}

describe('fan-out to SQS and EventBridge (named in the configuration)', () => {
  let on: Awaited<ReturnType<typeof setup>>;
  let off: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    on = await setup({ EVENTS_SQS_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/123456789012/inbox', EVENTS_BUS_NAME: 'inbox-bus' });
    off = await setup({});
  });
  afterAll(async () => {
    await on.h.close();
    await off.h.close();
  });

  it('sends each new event once to the queue and the bus; a duplicate is not sent again', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [{ Id: '0', MessageId: 'm', MD5OfMessageBody: 'x' }], Failed: [] });
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e' }] });
    expect((await on.deliver(1)).status).toBe(200);
    expect((await on.deliver(1)).status).toBe(200);
    const sent = sqs.commandCalls(SendMessageBatchCommand);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.args[0].input.QueueUrl).toBe('https://sqs.eu-central-1.amazonaws.com/123456789012/inbox');
    const message = JSON.parse(sent[0]!.args[0].input.Entries![0]!.MessageBody!);
    expect(message).toMatchObject({ subscription_id: on.id, type: 'record.update', data: { revision_id: 1 } });
    const put = bus.commandCalls(PutEventsCommand);
    expect(put).toHaveLength(1);
    expect(put[0]!.args[0].input.Entries![0]).toMatchObject({ EventBusName: 'inbox-bus', Source: 'tool-execution-service.dbapp', DetailType: 'record.update' });
  });

  it('a failed fan-out still stores the event and answers the vendor 200 (no retry of what is stored)', async () => {
    sqs.on(SendMessageBatchCommand).rejects(new Error('queue down'));
    bus.on(PutEventsCommand).resolves({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'x' }] });
    expect((await on.deliver(2)).status).toBe(200);
    const listed = await on.h.json('dbapp/listEvents', { subscription_id: on.id, include_acked: true });
    expect(listed.body.data.events.map((e: any) => e.data.revision_id)).toContain(2);
  });

  it('is off by default: nothing is sent', async () => {
    expect((await off.deliver(1)).status).toBe(200);
    expect(sqs.commandCalls(SendMessageBatchCommand)).toHaveLength(0);
    expect(bus.commandCalls(PutEventsCommand)).toHaveLength(0);
  });
});
