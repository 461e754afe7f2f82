import { describe, expect, it } from 'vitest';
import { SHAREFILE_DEMO as D } from '../../infra/twins/sharefile';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };
const ITEM = ['CreationDate', 'FileSizeBytes', 'Id', 'Name', 'odata.type'];
const keys = (o: object) => Object.keys(o).sort();

describe('summary_only on every read (docs/spec.md#summary-form)', () => {
  it('returns exactly the summary fields', async () => {
    const h = await harness();
    const top = await h.call('filebox/getTopLevelFolders', { summary_only: true }, json);
    // The alias roots carry no size of their own; a summary field is left out rather than invented.
    for (const f of top.body.data.folders) expect(ITEM).toEqual(expect.arrayContaining(keys(f)));
    expect(keys(top.body.data.folders[0])).toEqual(ITEM);
    const user = await h.call('filebox/getUser', { user_id: D.users.marcus, summary_only: true }, json);
    expect(keys(user.body.data)).toEqual(['Email', 'FullName', 'Id']);
    const group = await h.call('filebox/getGroup', { group_id: D.groups.partners, summary_only: true }, json);
    expect(keys(group.body.data)).toEqual(['Id', 'IsShared', 'Name', 'NumberOfContacts']);
    const groups = await h.call('filebox/listGroups', { summary_only: true }, json);
    for (const g of groups.body.data.groups) expect(keys(g)).toEqual(['Id', 'IsShared', 'Name', 'NumberOfContacts']);
    const shares = await h.call('filebox/listShares', { summary_only: true }, json);
    for (const s of shares.body.data.shares) expect(keys(s)).toEqual(['CreationDate', 'ExpirationDate', 'Id', 'MaxDownloads', 'ShareType', 'Title', 'TotalDownloads', 'Uri']);
    const children = await h.call('filebox/getItem', { item_id: D.folders.contracts, include_children: true, summary_only: true }, json);
    expect(keys(children.body.data)).toEqual([...ITEM, 'Children'].sort());
    for (const c of children.body.data.Children) expect(keys(c)).toEqual(ITEM);
  });

  it('lists default to top 100 and say how to get the next page', async () => {
    const h = await harness();
    const sent = h.recordRequests('filebox');
    await h.call('filebox/listChildren', {});
    await h.call('filebox/listGroups', {});
    await h.call('filebox/listShares', {});
    expect(sent.map((s) => s.query.get('$top'))).toEqual(['100', '100', '100']);
    const page = await h.call('filebox/listGroups', { top: 1 });
    expect(page.body.data).toMatch(/\nshowing 1 of 2 — pass skip 1 for the next page$/);
  });

  it('takes every alias where a folder goes: favorites, box, connectors', async () => {
    const h = await harness();
    const fav = await h.call('filebox/listChildren', { folder_id: 'favorites' }, json);
    expect(fav.body.data.items.map((i: { Id: string }) => i.Id).sort()).toEqual([D.folders.ortiz, D.files.offer].sort());
    const box = await h.call('filebox/createFolder', { parent_id: 'box', name: 'Inbox' }, json);
    expect(box.body.data.Parent.Id).toBe(D.folders.oliviaBox);
    const connectors = await h.call('filebox/listChildren', { folder_id: 'connectors' });
    expect(connectors.body.data).toBe('no items in connectors');
    const top = await h.call('filebox/getItem', { item_id: 'top' }, json);
    expect(top.body.data).toMatchObject({ Id: 'top', Name: 'Top' });
  });
});
