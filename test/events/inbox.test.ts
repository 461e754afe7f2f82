import { describe, expect, it } from 'vitest';
import { Inbox } from '../../shared/events/inbox';
import { MemoryStore } from '../../shared/store/memory';

/** The inbox's ordering rules on the Store port, with a clock the test moves. */
describe('inbox: a number taken but not yet written holds the listing back', () => {
  const setup = async () => {
    let now = Date.parse('2026-11-27T10:00:00Z');
    const clock = () => now;
    const store = new MemoryStore(clock);
    const inbox = new Inbox(store, 3600, clock);
    const sub = await inbox.create(Inbox.newSubscription('dbapp', 'owner', {}, now));
    const event = (n: number) => ({ key: `k${n}`, type: 'record.update', data: { revision_id: n } });
    return { store, inbox, sub, event, advance: (ms: number) => void (now += ms) };
  };
  const revisions = (page: { events: { data: Record<string, unknown> }[] }) => page.events.map((e) => e.data.revision_id);

  it('lists nothing past a number whose event may still land, so no cursor or acknowledgement passes it', async () => {
    const { store, inbox, sub, event } = await setup();
    // A delivery took number 1 and is still writing; another stored number 2.
    await store.add(`evseq#${sub.id}`, 1, 3600);
    await inbox.append(sub, [event(2)]);
    const first = await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false });
    expect(first.events).toEqual([]);
    expect(first.after[sub.id]).toBe(0);
    expect(await inbox.ack(sub, { upTo: first.after[sub.id]! })).toBe(0);
    // The first write lands: both are listed, in order.
    await store.putPairIfAbsent(`evdup#${sub.id}#x`, 1, 3600, { key: `ev#${sub.id}#1`, value: { id: `${sub.id}.1`, subscription_id: sub.id, seq: 1, type: 'record.update', received_at: new Date().toISOString(), data: { revision_id: 1 } } });
    expect(revisions(await inbox.listEvents([sub], { after: first.after, limit: 50, includeAcked: false }))).toEqual([1, 2]);
  });

  it('a number that never lands is passed once the events after it are older than any write can take', async () => {
    const { store, inbox, sub, event, advance } = await setup();
    await store.add(`evseq#${sub.id}`, 1, 3600);
    await inbox.append(sub, [event(2)]);
    advance(61_000);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false }))).toEqual([2]);
  });

  it('a duplicate that loses the race marks its number as a final gap: nothing is held back', async () => {
    const { inbox, sub, event } = await setup();
    await Promise.all([inbox.append(sub, [event(1)]), inbox.append(sub, [event(1)]), inbox.append(sub, [event(1)])]);
    await inbox.append(sub, [event(2)]);
    const page = await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false });
    expect(revisions(page)).toEqual([1, 2]);
    expect(await inbox.ack(sub, { upTo: page.after[sub.id]! })).toBe(2);
    expect((await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false })).events).toEqual([]);
  });

  it('acknowledging by id moves the floor over acknowledged events only', async () => {
    const { inbox, sub, event } = await setup();
    const stored = (await inbox.append(sub, [event(1), event(2), event(3)])).stored;
    expect(await inbox.ack(sub, { seqs: [stored[0]!.seq, stored[2]!.seq] })).toBe(2);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false }))).toEqual([2]);
    expect(await inbox.ack(sub, { seqs: [stored[1]!.seq, stored[1]!.seq] })).toBe(1);
    expect((await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: false })).events).toEqual([]);
    expect(revisions(await inbox.listEvents([sub], { after: {}, limit: 50, includeAcked: true }))).toEqual([1, 2, 3]);
  });
});
