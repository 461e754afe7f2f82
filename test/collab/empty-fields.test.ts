import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness';
import type { Faults } from '../../infra/twins/kit/faults';
import { PODIO_DEMO } from '../../infra/twins/podio';

// Optional fields the specification lists are present as null when empty, never dropped: a caller
// reading `file.link` or `comment.rich_value` finds the key in every answer.
const json = { query: 'format=json' };
const D = PODIO_DEMO;
const faults = (h: Awaited<ReturnType<typeof harness>>) => (h.twins.collab as unknown as { faults: Faults }).faults;
const FILE_FIELDS = ['file_id', 'name', 'mimetype', 'size', 'link', 'hosted_by', 'description', 'created_on', 'created_by', 'thumbnail_link', 'rights'];

describe('collab: listed fields present as null when empty', () => {
  it('file metadata: every listed field in getFile and the listings; a bare Podio answer gives nulls', async () => {
    const h = await harness();
    const up = await h.call('collab/uploadFile', { files: [{ filename: 'notes.txt', content: Buffer.from('hello').toString('base64') }] }, json);
    expect(Object.keys(up.body.data.files[0])).toEqual(expect.arrayContaining(['link', 'hosted_by']));
    const id = up.body.data.files[0].file_id as number;
    const full = await h.call('collab/getFile', { file_id: id }, json);
    expect(Object.keys(full.body.data)).toEqual(expect.arrayContaining(FILE_FIELDS));
    expect(full.body.data).toMatchObject({ description: null, thumbnail_link: null });
    const listed = await h.call('collab/getFilesOnApp', { app_id: D.apps.deals }, json);
    expect(listed.body.data.length).toBeGreaterThan(0);
    for (const f of listed.body.data) expect(Object.keys(f)).toEqual(expect.arrayContaining([...FILE_FIELDS, 'context']));

    faults(h).inject({ method: 'GET', path: `/file/${id}`, times: 1, fault: { status: 200, body: { file_id: id, name: 'notes.txt' } } });
    const bare = await h.call('collab/getFile', { file_id: id }, json);
    expect(bare.body.data).toMatchObject({ link: null, hosted_by: null, description: null, created_on: null, created_by: null, thumbnail_link: null, rights: null });
  });

  it('comments: rich_value is null when Podio gives none, in getComment and the listing', async () => {
    const h = await harness();
    const added = await h.call('collab/addCommentToObject', { type: 'item', id: D.items.firstProject, value: 'Plain words' }, json);
    expect(added.status).toBe(200);
    const id = added.body.data.comment_id as number;
    faults(h).inject({ method: 'GET', path: `/comment/${id}`, times: 1, fault: { status: 200, body: { comment_id: id, value: 'Plain words', created_on: '2026-01-01 10:00:00', created_by: { type: 'user', id: 1001, name: 'Ann Becker' } } } });
    const one = await h.call('collab/getComment', { comment_id: id }, json);
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveProperty('rich_value', null);
    const list = await h.call('collab/getCommentsOnObject', { type: 'item', id: D.items.firstProject }, json);
    for (const c of list.body.data) expect(c).toHaveProperty('rich_value');
  });

  it('conversations: excerpt, last_event_on, link and profile ids are null when Podio gives none; an event without created_via has it null', async () => {
    const h = await harness();
    const id = 56002; // the demo's direct conversation (test/collab/conversations.test.ts)
    const bare = { conversation_id: id, subject: 'Quiet', type: 'direct', created_on: '2026-01-01 10:00:00', created_by: { type: 'user', id: 1001, name: 'Ann Becker' }, participants: [{ user_id: 1001, name: 'Ann Becker' }] };
    faults(h).inject({ method: 'GET', path: `/conversation/${id}`, times: 1, fault: { status: 200, body: bare } });
    const one = await h.call('collab/getConversation', { conversation_id: id }, json);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ excerpt: null, last_event_on: null, link: null });
    expect(one.body.data.participants[0]).toEqual({ user_id: 1001, profile_id: null, name: 'Ann Becker', type: 'user' });
    const list = await h.call('collab/getConversations', {}, json);
    for (const c of list.body.data.conversations ?? list.body.data) expect(Object.keys(c)).toEqual(expect.arrayContaining(['excerpt', 'last_event_on']));
    const event = { event_id: 1, action: 'message', created_on: '2026-01-01 10:00:00', created_by: { type: 'user', id: 1001, name: 'Ann Becker' }, data: { message_id: 9, text: 'hi' } };
    faults(h).inject({ method: 'GET', path: `/conversation/${id}/event/`, times: 1, fault: { status: 200, body: [event] } });
    const events = await h.call('collab/getConversationEvents', { conversation_id: id }, json);
    expect(events.status).toBe(200);
    const first = (events.body.data.events ?? events.body.data)[0];
    expect(first).toHaveProperty('created_via', null);
  });

  it('items: title, app_item_id, link and created_on are null when Podio gives none, in getItem and filterItems; a contact without user_id has it null', async () => {
    const h = await harness();
    const id = D.items.firstDeal;
    const contact = { field_id: 9208, external_id: 'owner', label: 'Deal owner', type: 'contact', values: [{ value: { profile_id: 5101, name: 'Ann Becker' } }] };
    const bare = { item_id: id, title: null, fields: [contact] };
    faults(h).inject({ method: 'GET', path: `/item/${id}`, times: 2, fault: { status: 200, body: bare } });
    const one = await h.call('collab/getItem', { item_id: id }, json);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data).toMatchObject({ item_id: id, app_item_id: null, title: null, link: null, created_on: null, created_by: { user_id: null, name: 'unknown' }, tags: [] });
    expect(one.body.data.fields).toEqual([{ field_id: 9208, external_id: 'owner', label: 'Deal owner', type: 'contact', value: [{ profile_id: 5101, user_id: null, name: 'Ann Becker' }] }]);
    const text = await h.call('collab/getItem', { item_id: id });
    expect(text.body.data).toMatch(new RegExp(`^#${id} \\(untitled\\)`));
    expect(text.body.data).not.toMatch(/\bnull\b|undefined/);

    faults(h).inject({ method: 'POST', path: `/item/app/${D.apps.deals}/filter/`, times: 2, fault: { status: 200, body: { total: 1, filtered: 1, items: [bare] } } });
    const list = await h.call('collab/filterItems', { app_id: D.apps.deals }, json);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.items[0]).toMatchObject({ app_item_id: null, title: null, link: null, created_on: null });
    const lines = await h.call('collab/filterItems', { app_id: D.apps.deals });
    expect(lines.body.data).not.toMatch(/\bnull\b|undefined/);
  });

  it('createItem answers link null when Podio gives none; item revisions carry created_on and changes null when empty', async () => {
    const h = await harness();
    faults(h).inject({ method: 'POST', path: `/item/app/${D.apps.companies}/`, times: 1, fault: { status: 200, body: { item_id: 39999 } } });
    const created = await h.call('collab/createItem', { app_id: D.apps.companies, fields: { 'company-name': 'Quiet Co' } }, json);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toEqual({ item_id: 39999, link: null });

    const id = D.items.firstCompany;
    faults(h).inject({ method: 'GET', path: `/item/${id}/revision/`, times: 2, fault: { status: 200, body: [{ revision: 0, created_by: { type: 'user', id: 1001, name: 'Ann Becker' } }] } });
    const revs = await h.call('collab/getItemRevisions', { item_id: id }, json);
    expect(revs.status, JSON.stringify(revs.body)).toBe(200);
    expect(revs.body.data.revisions).toEqual([{ revision: 0, type: 'creation', created_on: null, created_by: { user_id: 1001, name: 'Ann Becker' }, changes: null }]);
    const text = await h.call('collab/getItemRevisions', { item_id: id });
    expect(text.body.data).toMatch(/^rev 0 creation by Ann Becker/);
    expect(text.body.data).not.toMatch(/\bnull\b|undefined/);
  });

  it('comments: embed is null when there is none, in getComment and the listing, and the text shows no link', async () => {
    const h = await harness();
    const added = await h.call('collab/addCommentToObject', { type: 'item', id: D.items.firstProject, value: 'No link here' }, json);
    expect(added.status).toBe(200);
    expect(added.body.data).toHaveProperty('embed', null);
    const one = await h.call('collab/getComment', { comment_id: added.body.data.comment_id }, json);
    expect(one.body.data).toHaveProperty('embed', null);
    const list = await h.call('collab/getCommentsOnObject', { type: 'item', id: D.items.firstProject }, json);
    expect(list.body.data.length).toBeGreaterThan(0);
    for (const c of list.body.data) expect(c).toHaveProperty('embed');
    const withLink = await h.call('collab/addCommentToObject', { type: 'item', id: D.items.firstProject, value: 'See this', embed_url: 'https://example.com/spec' }, json);
    expect(withLink.body.data.embed).toMatchObject({ url: expect.stringContaining('example.com') });
    const text = await h.call('collab/getComment', { comment_id: added.body.data.comment_id });
    expect(text.body.data).not.toMatch(/\bnull\b|\[link:/);
  });
});
