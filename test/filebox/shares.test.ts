import { describe, expect, it } from 'vitest';
import { SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { createClock } from '../../infra/twins/kit';

const json = { query: 'format=json' };
/** The ShareFile twin started on its seed's reference day, where the seed's dates are as written (infra/twins/kit/seed-day.ts). */
const onSeedDay = () => harness({ twins: { filebox: { clock: createClock(D.today + 9 * 3_600_000) } } });
const S = D.shares;
const DAY = 86_400_000;

describe('getShare, listShares', () => {
  it('reads a share with items and recipients; summary_only keeps the summary fields', async () => {
    const h = await onSeedDay();
    const r = await h.call('filebox/getShare', { share_id: S.proposalSend, include_items: true, include_recipients: true }, json);
    expect(r.body.data).toMatchObject({ Id: S.proposalSend, ShareType: 'Send', Title: 'Ortiz proposal', MaxDownloads: 10, TotalDownloads: 2, Recipients: [{ Email: 'daniel@ortizbuilders.example', Downloads: 2 }] });
    expect(r.body.data.Items.map((i: { Id: string }) => i.Id)).toEqual([D.files.proposal, D.files.scope]);
    const text = await h.call('filebox/getShare', { share_id: S.proposalSend, include_items: true });
    expect(text.body.data).toMatch(new RegExp(`^${S.proposalSend} Send "Ortiz proposal" 2/10 downloads, expires 2027-03-05 — https://acme\\.sf-api\\.com/share/view/a\\w+\\n  item ${D.files.proposal} proposal\\.pdf`));
    const s = await h.call('filebox/getShare', { share_id: S.proposalSend, summary_only: true }, json);
    expect(Object.keys(s.body.data).sort()).toEqual(['ExpirationDate', 'Id', 'MaxDownloads', 'ShareType', 'Title', 'TotalDownloads', 'Uri']);
  });

  it('hides expired shares unless include_expired; filters by share_type', async () => {
    const h = await onSeedDay();
    const live = await h.call('filebox/listShares', {}, json);
    expect(live.body.data.shares.map((s: { Id: string }) => s.Id)).toEqual([S.ortizRequest, S.proposalSend]);
    const all = await h.call('filebox/listShares', { include_expired: true, share_type: 'Send', summary_only: true }, json);
    expect(all.body.data.shares.map((s: { Id: string }) => s.Id)).toEqual([S.proposalSend, S.expired]);
    expect(Object.keys(all.body.data.shares[0])).toContain('CreationDate');
    const text = await h.call('filebox/listShares', { include_expired: true, share_type: 'Send' });
    expect(text.body.data).toMatch(/"Old brochure" 5\/∞ downloads, expires 2025-11-10 \(expired\)/);
  });
});

describe('createShare', () => {
  it('checks the rules before the call: Send needs items, Request needs parent_id, recipients are emails, max_downloads -1 or more', async () => {
    const h = await harness();
    const sent = h.recordRequests('filebox');
    const cases: [Record<string, unknown>, string][] = [
      [{ share_type: 'Send' }, 'items'],
      [{ share_type: 'Request' }, 'parent_id'],
      [{ share_type: 'Send', items: [D.files.offer], recipients: ['not-an-email'] }, 'recipients.0'],
      [{ share_type: 'Send', items: [D.files.offer], max_downloads: 0 }, 'max_downloads'],
      [{ share_type: 'Send', items: [D.files.offer], max_downloads: -2 }, 'max_downloads'],
      [{ share_type: 'Send', items: [D.files.offer], max_downloads: 2.5 }, 'max_downloads'],
      [{ share_type: 'Send', items: ['home'] }, 'items.0'],
      [{ share_type: 'Send', items: [D.files.offer], personal_message: 'hi' }, 'recipients'],
      [{ share_type: 'Request', parent_id: 'top' }, 'parent_id'],
    ];
    for (const [params, parameter] of cases) {
      const r = await h.call('filebox/createShare', params);
      expect(r.body.error, JSON.stringify(params)).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    }
    expect(sent).toEqual([]);
  });

  it('max_downloads: every tool that has it says -1 or 1 and more in its schema, and refuses 0 before any call', async () => {
    const h = await harness();
    const res = await h.app.request('/v1/tools/filebox', { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
    const tools = ((await res.json()) as any).data.tools as { name: string; input_schema: { properties: Record<string, any> } }[];
    const having = tools.filter((t) => t.input_schema.properties.max_downloads);
    expect(having.map((t) => t.name).sort()).toEqual(['createShare', 'updateShare']);
    for (const t of having) {
      expect(t.input_schema.properties.max_downloads, t.name).toMatchObject({ type: 'integer', minimum: -1 });
      expect(t.input_schema.properties.max_downloads.description).toMatch(/-1 for unlimited, or 1 and more/);
    }
    const sent = h.recordRequests('filebox');
    const zero = await h.call('filebox/updateShare', { share_id: S.proposalSend, max_downloads: 0 });
    expect(zero.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'max_downloads' } });
    expect(zero.body.error.message).toMatch(/-1 \(unlimited\) or a whole number of 1 or more/);
    expect(sent).toEqual([]);
  });

  it('a Send share: emailed with the message, its Uri lists the files and counts downloads against max_downloads', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const r = await h.call('filebox/createShare', { share_type: 'Send', items: [D.files.offer], title: 'Your offer', max_downloads: 1, expiration_days: 7, recipients: ['ana@example.com'], personal_message: 'Please sign.', cc_sender: true }, json);
    // The share itself, with who was emailed beside its fields.
    expect(r.body.data).toMatchObject({ notified: ['ana@example.com'], ShareType: 'Send', Title: 'Your offer', MaxDownloads: 1, TotalDownloads: 0, HasSentMessage: true });
    expect(r.body.data.Id).toMatch(/^s/);
    const expires = Date.parse(r.body.data.ExpirationDate);
    expect(Math.abs(expires - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(twin.state.outbox.at(-1)).toMatchObject({ to: 'ana@example.com', cc: 'olivia.bennett@acmelegal.example', subject: 'Olivia Bennett sent you files: Your offer' });
    expect(twin.state.outbox.at(-1)!.body).toMatch(/^Please sign\.\n/);
    const page = await twin.fetch(r.body.data.Uri);
    const html = await page.text();
    expect(html).toContain('offer.pdf');
    const link = /href="([^"]+)"/.exec(html)![1]!;
    const first = await twin.fetch(new URL(link, r.body.data.Uri));
    expect(first.status).toBe(200);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const second = await twin.fetch(new URL(link, r.body.data.Uri));
    expect(second.status).toBe(403);
    const after = await h.call('filebox/getShare', { share_id: r.body.data.Id }, json);
    expect(after.body.data.TotalDownloads).toBe(1);
    twin.clock.advance(8 * DAY);
    expect((await twin.fetch(r.body.data.Uri)).status).toBe(410);
  });

  it('a Request share takes parent_id, ignores items, and its Uri accepts uploads into the folder', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const r = await h.call('filebox/createShare', { share_type: 'Request', parent_id: D.folders.ortiz, items: [D.files.offer], notify_on_upload: true }, json);
    expect(r.body.data).toMatchObject({ ignored: ['items'], ShareType: 'Request', Parent: { Id: D.folders.ortiz } });
    expect(r.body.data.Items).toBeUndefined();
    const page = await twin.fetch(r.body.data.Uri);
    expect(await page.text()).toContain('asks you to upload files');
    const form = new FormData();
    form.set('File1', new Blob(['permit scan']), 'permit.pdf');
    const up = await twin.fetch(`${r.body.data.Uri}/upload`, { method: 'POST', body: form });
    expect(up.status).toBe(200);
    const listed = await h.call('filebox/listChildren', { folder_id: D.folders.ortiz, filter: "Name eq 'permit.pdf'" }, json);
    expect(listed.body.data.total_count).toBe(1);
  });
});

describe('updateShare, deleteShare, sendShareNotification', () => {
  it('updates the limit and expiry; an expired share cannot be notified; deleting ends its link', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const r = await h.call('filebox/updateShare', { share_id: S.proposalSend, max_downloads: -1, title: 'Ortiz proposal v2', require_login: true }, json);
    expect(r.body.data).toMatchObject({ MaxDownloads: -1, Title: 'Ortiz proposal v2', RequireLogin: true });
    const none = await h.call('filebox/updateShare', { share_id: S.proposalSend });
    expect(none.body.error.code).toBe('INVALID_PARAMETER');
    const sentTo = await h.call('filebox/sendShareNotification', { share_id: S.proposalSend, recipients: ['b@example.com', 'c@example.com'], personal_message: 'FYI' });
    expect(sentTo.body.data).toBe(`Sent share ${S.proposalSend} to 2 recipients. b@example.com, c@example.com`);
    expect(twin.state.outbox.slice(-2).map((m) => m.to)).toEqual(['b@example.com', 'c@example.com']);
    const expired = await h.call('filebox/sendShareNotification', { share_id: S.expired, recipients: ['b@example.com'] });
    expect(expired.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'share_id', upstream_status: 400 } });
    expect(expired.body.error.message).toContain('The share has expired');
    const empty = await h.call('filebox/sendShareNotification', { share_id: S.proposalSend, recipients: [] });
    expect(empty.body.error.details.parameter).toBe('recipients');
    const share = twin.state.shares.get(S.proposalSend)!;
    const uri = `https://acme.sf-api.com/share/view/${share.aliasId}`;
    const d = await h.call('filebox/deleteShare', { share_id: S.proposalSend }, json);
    expect(d.body.data.message).toContain('no longer work');
    expect((await twin.fetch(uri)).status).toBe(404);
    expect((await h.call('filebox/getShare', { share_id: S.proposalSend })).body.error.code).toBe('NOT_FOUND');
  });
});
