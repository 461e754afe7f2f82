import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const D = PODIO_DEMO;
const U = D.users;
const deal = D.items.firstDeal;
/** A project: seeded without comments. */
const project = D.items.firstProject;

// A file "on the internet": a server on 127.0.0.1, reachable only because ALLOW_HTTP_HOSTS lists it.
const base = loopbackServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end(Buffer.from('%PDF-1.4 signed contract'));
});

/** A date as the text shows it: seconds only when not zero. */
const WHEN = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d(:\\d\\d)?';

const posts = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

/** `n` comments on an item written straight into the twin, oldest first; their ids in that order. */
function seedComments(twin: PodioTwin, itemId: number, n: number): number[] {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const comment_id = 95001 + i;
    const created_on = `2025-03-${String(1 + Math.floor(i / 24)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:00:00`;
    const value = `Status update ${i + 1}`;
    twin.state.comments.set(comment_id, { comment_id, ref: { type: 'item', id: itemId }, value, external_id: null, created_on, created_by: U.ben.user_id, embed_id: null, file_ids: [], versions: [{ revision_id: 1, value, created_on, embed_id: null }] });
    ids.push(comment_id);
  }
  return ids;
}

describe('addCommentToObject', () => {
  it('adds a comment with a checked mention and returns the comment (docs/spec.md#collab-comment), in JSON and text', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const value = `@[${U.ben.name}](user:${U.ben.user_id}) please send the invoice.\nThanks!`;
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      value,
      created_by: { user_id: U.owner.user_id, name: U.owner.name, type: 'user' },
      ref: { type: 'item', id: deal },
      files: [],
      like_count: 0,
      is_liked: false,
    });
    expect(r.body.data.comment_id).toBeGreaterThan(D.firstIds.comment);
    expect(r.body.data.rich_value).toContain(`data-id="${U.ben.user_id}"`);
    // The org was found through the item's app and space, and its members read, before the write.
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET /item/${deal}`,
      `GET /app/${D.apps.deals}`,
      `GET /space/${D.spaces.sales}`,
      `GET /org/${D.org.org_id}/member/`,
      `POST /comment/item/${deal}/`,
      `GET /comment/${r.body.data.comment_id}`,
    ]);
    expect(sent[4]!.body).toEqual({ value });

    const text = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Invoice sent.' });
    expect(text.body.data).toMatch(new RegExp(`^added comment #\\d+ ${WHEN} ${U.owner.name}: Invoice sent\\.\\non item #${deal}$`));
  });

  it('still answers with the new comment_id when reading the comment back fails', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: /^\/comment\/\d+$/, times: 1, fault: { status: 503, body: { error: 'unavailable', error_description: 'Try again' } } });
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Written once.' }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ value: 'Written once.', ref: { type: 'item', id: deal } });
    // Every read-back refused (retries included): the answer lists what is unknown as null, and its text prints no null.
    const down = h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: /^\/comment\/\d+$/, fault: { status: 503, body: { error: 'unavailable', error_description: 'Try again' } } });
    const blind = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Written blind.' }, json);
    expect(blind.body.data).toMatchObject({ value: 'Written blind.', created_on: null, rich_value: null, embed: null, created_by: { user_id: null } });
    const text = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Written twice.' });
    expect(text.body.data).toMatch(/^added comment #\d+ unknown: Written twice\./);
    down.remove();
    expect((await h.call('collab/getComment', { comment_id: r.body.data.comment_id }, json)).body.data.value).toBe('Written once.');
  });

  it('leaves the judgement to Podio when the org lists no members', async () => {
    const h = await harness();
    h.twin<PodioTwin>('collab').faults.inject({ method: 'GET', path: `/org/${D.org.org_id}/member/`, fault: { status: 200, body: [] } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: '@[Ghost](user:4242) hello' });
    expect(r.status).toBe(200);
    expect(posts(sent)).toEqual([`POST /comment/item/${deal}/`]);
  });

  it('reads nothing to check a text without mentions', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'No mention here, just an @ sign.' });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([`POST /comment/item/${deal}/`, expect.stringMatching(/^GET \/comment\/\d+$/)]);
  });

  it.each([
    ['a non-numeric user id', `@[${U.ben.name}](user:ben)`, 'has no numeric user id'],
    ['a profile target', `@[${U.ben.name}](profile:${U.ben.profile_id})`, 'names a profile'],
    ['a space inside the target', `@[${U.ben.name}](user: ${U.ben.user_id})`, `must be written exactly @[${U.ben.name}](user:${U.ben.user_id})`],
    ['a target that is no user', `@[Sales](space:${D.spaces.sales})`, 'does not point to a user'],
  ])('refuses %s before any call to Podio', async (_case, mention, problem) => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: `${mention} see the offer` });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'value', expected: expect.stringContaining('(user:<user_id>)') } });
    expect(r.body.error.message).toContain(problem);
    expect(r.body.error.message).toContain('Podio drops such a mention silently');
    expect(sent).toHaveLength(0);
  });

  it('refuses a profile id given as a user id, with the right user id in the hint', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: `@[${U.ben.name}](user:${U.ben.profile_id}) please check` });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('value');
    expect(r.body.error.message).toContain(`${U.ben.profile_id} is the profile id of ${U.ben.name}, not a user id: write @[${U.ben.name}](user:${U.ben.user_id})`);
    expect(posts(sent)).toEqual([]);
  });

  it('refuses an id that is no user of the org, listing every bad mention', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: `@[Ghost](user:4242) and @[${U.chloe.name}](user:${U.chloe.user_id}) and @[Nobody](user:4343)` });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('no member of the organization has user id 4242');
    expect(r.body.error.message).toContain('no member of the organization has user id 4343');
    expect(r.body.error.message).not.toContain(`user id ${U.chloe.user_id}`);
    expect(posts(sent)).toEqual([]);
  });

  it('checks mentions on tasks and statuses against the orgs of the key', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const bad = await h.call('collab/addCommentToObject', { type: 'task', id: 77, value: `@[${U.ben.name}](user:${U.ben.profile_id}) ping` });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain(`(user:${U.ben.user_id})`);
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /org/', `GET /org/${D.org.org_id}/member/`]);
    // A good mention passes the check; the twin has no task 77, which Podio answers with 404.
    const good = await h.call('collab/addCommentToObject', { type: 'status', id: 77, value: `@[${U.ben.name}](user:${U.ben.user_id}) ping` });
    expect(good.status).toBe(404);
    expect(posts(sent)).toEqual(['POST /comment/status/77/']);
  });

  it('passes silent, hook and alert_invite on as Podio query flags', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Quiet note.', silent: true, hook: false, alert_invite: true });
    const post = sent.find((s) => s.method === 'POST')!;
    expect(Object.fromEntries(post.query)).toEqual({ silent: 'true', hook: 'false', alert_invite: 'true' });
  });

  it('uploads https URLs given in file_ids, then attaches them; keeps embed_url and external_id', async () => {
    const h = await harness({ env: { ALLOW_HTTP_HOSTS: '127.0.0.1' } });
    const sent = h.recordRequests('collab');
    const r = await h.call(
      'collab/addCommentToObject',
      { type: 'item', id: deal, value: 'Signed contract attached.', file_ids: [`${base()}/contracts/signed.pdf`], embed_url: 'https://example.com/offer', external_id: 'crm-note-7' },
      json,
    );
    expect(r.status).toBe(200);
    expect(r.body.data.files).toEqual([expect.objectContaining({ name: 'signed.pdf', mimetype: 'application/pdf' })]);
    expect(r.body.data.embed).toMatchObject({ url: 'https://example.com/offer' });
    expect(r.body.data.external_id).toBe('crm-note-7');
    expect(posts(sent)).toEqual(['POST /file/', `POST /comment/item/${deal}/`]);
    expect(sent.find((s) => s.path.startsWith('/comment/'))!.body).toEqual({ value: 'Signed contract attached.', file_ids: [r.body.data.files[0].file_id], embed_url: 'https://example.com/offer', external_id: 'crm-note-7' });
  });

  it('refuses bad file_ids and embed_url before any call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const file = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'x', file_ids: [60001, 'contract.pdf'] });
    expect(file.status).toBe(400);
    expect(file.body.error.details.parameter).toBe('file_ids.1');
    const embed = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'x', embed_url: 'ftp://example.com/offer' });
    expect(embed.status).toBe(400);
    expect(embed.body.error.details.parameter).toBe('embed_url');
    const type = await h.call('collab/addCommentToObject', { type: 'app', id: D.apps.deals, value: 'x' });
    expect(type.body.error.details.parameter).toBe('type');
    expect(sent).toHaveLength(0);
  });
});

describe('getComment', () => {
  it('gives one comment with its author, ref and text', async () => {
    const h = await harness();
    const r = await h.call('collab/getComment', { comment_id: D.firstIds.comment }, json);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ comment_id: D.firstIds.comment, ref: { type: 'item', id: expect.any(Number) }, files: [], like_count: 0, is_liked: false });
    expect(r.body.data.created_by).toEqual({ user_id: expect.any(Number), name: expect.any(String), type: 'user' });
    const text: string = (await h.call('collab/getComment', { comment_id: D.firstIds.comment })).body.data;
    expect(text).toMatch(new RegExp(`^#${D.firstIds.comment} ${WHEN} ${r.body.data.created_by.name}: `));
    expect(text.split('\n')[1]).toBe(`on item #${r.body.data.ref.id}`);
  });

  it('maps an unknown comment to NOT_FOUND', async () => {
    const h = await harness();
    const r = await h.call('collab/getComment', { comment_id: 1 });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
  });
});

describe('getCommentsOnObject', () => {
  it('lists newest first by default and oldest first with sort asc', async () => {
    const h = await harness();
    const desc = await h.call('collab/getCommentsOnObject', { type: 'item', id: deal }, json);
    const asc = await h.call('collab/getCommentsOnObject', { type: 'item', id: deal, sort: 'asc' }, json);
    const ids = (r: typeof desc) => r.body.data.map((c: { comment_id: number }) => c.comment_id);
    expect(ids(desc).length).toBeGreaterThan(1);
    expect(ids(asc)).toEqual([...ids(asc)].sort((a, b) => a - b));
    expect(ids(desc)).toEqual([...ids(asc)].reverse());
    expect(desc.body.data[0]).not.toHaveProperty('ref');
    expect(desc.body.data[0].created_by).toMatchObject({ type: 'user' });
    const text: string = (await h.call('collab/getCommentsOnObject', { type: 'item', id: deal })).body.data;
    expect(text.split('\n')[0]).toBe(`comments on item #${deal}, newest first:`);
    expect(text.split('\n')[1]).toMatch(new RegExp(`^#${ids(desc)[0]} `));
    expect((await h.call('collab/getCommentsOnObject', { type: 'item', id: project })).body.data).toBe(`no comments on item #${project}`);
  });

  it('computes newest first from the total: pages of 100 read oldest first, the window cut from the end', async () => {
    const h = await harness();
    const ids = seedComments(h.twin<PodioTwin>('collab'), project, 130);
    const newest = [...ids].reverse();
    const sent = h.recordRequests('collab');
    const all = await h.call('collab/getCommentsOnObject', { type: 'item', id: project }, json);
    expect(all.body.data.map((c: { comment_id: number }) => c.comment_id)).toEqual(newest.slice(0, 100));
    expect(sent.map((s) => [s.path, s.query.get('limit'), s.query.get('offset')])).toEqual([
      [`/comment/item/${project}/`, '100', '0'],
      [`/comment/item/${project}/`, '100', '100'],
    ]);
    const window = await h.call('collab/getCommentsOnObject', { type: 'item', id: project, offset: 5, limit: 10 }, json);
    expect(window.body.data.map((c: { comment_id: number }) => c.comment_id)).toEqual(newest.slice(5, 15));
    // offset alone: the limit defaults to what is left of the newest 100.
    const rest = await h.call('collab/getCommentsOnObject', { type: 'item', id: project, offset: 95 }, json);
    expect(rest.body.data.map((c: { comment_id: number }) => c.comment_id)).toEqual(newest.slice(95, 100));
    const deep = await h.call('collab/getCommentsOnObject', { type: 'item', id: project, sort: 'asc', offset: 120, limit: 20 }, json);
    expect(deep.body.data.map((c: { comment_id: number }) => c.comment_id)).toEqual(ids.slice(120));
  });

  it('refuses desc mode past 5,000 comments, pointing to asc', async () => {
    const h = await harness();
    seedComments(h.twin<PodioTwin>('collab'), project, 5001);
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/getCommentsOnObject', { type: 'item', id: project, limit: 5 });
    expect(r.status).toBe(400);
    expect(r.body.error.details.parameter).toBe('sort');
    expect(r.body.error.message).toContain('Use sort "asc"');
    expect(sent).toHaveLength(50);
    const asc = await h.call('collab/getCommentsOnObject', { type: 'item', id: project, sort: 'asc', offset: 5000 }, json);
    expect(asc.body.data).toHaveLength(1);
  });

  it('enforces offset + limit <= 100 in desc mode, pointing to asc, with no call', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const over = await h.call('collab/getCommentsOnObject', { type: 'item', id: deal, offset: 90, limit: 20 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'limit', expected: 'offset + limit <= 100 with sort "desc"' } });
    expect(over.body.error.message).toContain('Lower limit to 10');
    expect(over.body.error.message).toContain('use sort "asc"');
    const past = await h.call('collab/getCommentsOnObject', { type: 'item', id: deal, offset: 100 });
    expect(past.body.error.details.parameter).toBe('offset');
    expect(sent).toHaveLength(0);
    const asc = await h.call('collab/getCommentsOnObject', { type: 'item', id: deal, sort: 'asc', offset: 90, limit: 20 });
    expect(asc.status).toBe(200);
  });

  it('says how to get the next page, and where desc mode ends', async () => {
    const h = await harness();
    seedComments(h.twin<PodioTwin>('collab'), project, 130);
    const first: string = (await h.call('collab/getCommentsOnObject', { type: 'item', id: project, limit: 10 })).body.data;
    expect(first.split('\n').at(-1)).toBe('showing 10 — pass offset 10 with the same sort for the next page');
    const end: string = (await h.call('collab/getCommentsOnObject', { type: 'item', id: project, offset: 90, limit: 10 })).body.data;
    expect(end.split('\n').at(-1)).toBe(`the newest 100 comments on item #${project} end here — older ones: sort "asc" (oldest first) with offset`);
    const last: string = (await h.call('collab/getCommentsOnObject', { type: 'item', id: project, sort: 'asc', offset: 120, limit: 20 })).body.data;
    expect(last.split('\n')[0]).toBe(`comments on item #${project}, oldest first:`);
    expect(last.split('\n').at(-1)).toBe('10 comments');
  });
});

describe('updateComment and getCommentRevisions', () => {
  it('replaces the text, keeps the old one as a revision, and answers {updated: true, comment_id}', async () => {
    const h = await harness();
    const added = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'Offer sent.' }, json);
    const comment_id = added.body.data.comment_id;
    const sent = h.recordRequests('collab');
    const value = `Offer sent. @[${U.chloe.name}](user:${U.chloe.user_id}) please review.`;
    const r = await h.call('collab/updateComment', { comment_id, value }, json);
    expect(r.body.data).toEqual({ updated: true, comment_id });
    // The mention was checked against the org of the comment's space.
    expect(sent.map((s) => `${s.method} ${s.path}`)).toContain(`GET /comment/${comment_id}`);
    expect(sent.find((s) => s.method === 'PUT')).toMatchObject({ path: `/comment/${comment_id}`, body: { value } });
    expect((await h.call('collab/getComment', { comment_id }, json)).body.data.value).toBe(value);

    const revisions = await h.call('collab/getCommentRevisions', { comment_id }, json);
    expect(revisions.body.data.map((v: { value: string }) => v.value)).toEqual(['Offer sent.', value]);
    expect(revisions.body.data[0]).toEqual({ created_on: expect.any(String), value: 'Offer sent.', rich_value: expect.stringContaining('Offer sent.'), embed: null, embed_file: null });
    const text: string = (await h.call('collab/getCommentRevisions', { comment_id })).body.data;
    expect(text.split('\n')[0]).toMatch(new RegExp(`^v1 ${WHEN}: Offer sent\\.$`));
    expect(text.split('\n').at(-1)).toBe(`2 versions of comment #${comment_id}, oldest first (the last is current)`);
    expect((await h.call('collab/updateComment', { comment_id, value: 'Final.' })).body.data).toBe(`updated comment #${comment_id}: Final. — earlier text in getCommentRevisions`);
  });

  it('lists revisions oldest first whatever order Podio sends them in', async () => {
    const h = await harness();
    const revision = (revision_id: number, value: string, created_on: string) => ({ revision_id, value, rich_value: `<p>${value}</p>`, created_on, embed: null, embed_file: null });
    h.twin<PodioTwin>('collab').faults.inject({
      method: 'GET',
      path: `/comment/${D.firstIds.comment}/revision`,
      fault: { status: 200, body: [revision(3, 'Third', '2025-01-22 09:00:00'), revision(1, 'First', '2025-01-20 09:00:00'), revision(2, 'Second', '2025-01-21 09:00:00')] },
    });
    const r = await h.call('collab/getCommentRevisions', { comment_id: D.firstIds.comment }, json);
    expect(r.body.data.map((v: { value: string }) => v.value)).toEqual(['First', 'Second', 'Third']);
  });

  it('finds the org through what the comment is on when it names no space', async () => {
    const h = await harness();
    const twin = h.twin<PodioTwin>('collab');
    const original = (await (await twin.fetch(`https://api.podio.com/comment/${D.firstIds.comment}`, { headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}` } })).json()) as { ref: { id: number } } & Record<string, unknown>;
    twin.faults.inject({ method: 'GET', path: `/comment/${D.firstIds.comment}`, times: 1, fault: { status: 200, body: { ...original, space_id: null } } });
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateComment', { comment_id: D.firstIds.comment, value: `@[${U.chloe.name}](user:${U.chloe.profile_id}) see above` });
    expect(r.status).toBe(400);
    expect(sent.map((x) => `${x.method} ${x.path}`)).toContain(`GET /item/${original.ref.id}`);
    expect(posts(sent)).toEqual([]);
  });

  it('refuses a bad mention before anything changes', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/updateComment', { comment_id: D.firstIds.comment, value: `@[${U.chloe.name}](user:${U.chloe.profile_id}) see above` });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(`write @[${U.chloe.name}](user:${U.chloe.user_id})`);
    expect(posts(sent)).toEqual([]);
    const revisions = await h.call('collab/getCommentRevisions', { comment_id: D.firstIds.comment }, json);
    expect(revisions.body.data).toHaveLength(1);
  });
});

describe('deleteComment', () => {
  it('deletes permanently, passes hook on, and answers {deleted: true, comment_id}', async () => {
    const h = await harness();
    const added = await h.call('collab/addCommentToObject', { type: 'item', id: deal, value: 'To be removed.' }, json);
    const comment_id = added.body.data.comment_id;
    const sent = h.recordRequests('collab');
    const r = await h.call('collab/deleteComment', { comment_id, hook: false }, json);
    expect(r.body.data).toEqual({ deleted: true, comment_id });
    expect(sent[0]).toMatchObject({ method: 'DELETE', path: `/comment/${comment_id}` });
    expect(sent[0]!.query.get('hook')).toBe('false');
    expect((await h.call('collab/getComment', { comment_id })).status).toBe(404);
    expect((await h.call('collab/deleteComment', { comment_id })).status).toBe(404);
  });

  it('answers in text', async () => {
    const h = await harness();
    expect((await h.call('collab/deleteComment', { comment_id: D.firstIds.comment })).body.data).toBe(`deleted comment #${D.firstIds.comment} (permanent)`);
  });
});
