import { describe, expect, it } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { ASYNC_COPY_THRESHOLD, DOWNLOAD_TOKEN_TTL_MS, SANDBOX_KEYS, SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { nextId } from '../../infra/twins/sharefile/state';
import { harness } from '../helpers/harness';
import { loopbackServer } from '../helpers/loopback';

const json = { query: 'format=json' };
const NOW = Date.parse('2026-03-10T09:00:00Z');
const setup = async (env: Record<string, string> = {}) => {
  const h = await harness({ env, twins: { filebox: { clock: createClock(NOW) } } });
  return { h, twin: h.twin<ShareFileTwin>('filebox') };
};
const writes = (sent: { method: string; path: string }[]) => sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

const site = loopbackServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="minutes.txt"' });
  res.end('Minutes of the kick-off meeting');
});

describe('getTopLevelFolders', () => {
  it('lists a client\'s containers without a home folder', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/getTopLevelFolders', {}, { ...json, key: SANDBOX_KEYS.member });
    expect(r.body.data.folders.map((f: { Id: string }) => f.Id)).toEqual(['favorites', 'allshared', 'connectors']);
  });
});

describe('listChildren', () => {
  it('lists the home folder by default, one line per child with ids first', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/listChildren', {});
    expect(r.status).toBe(200);
    expect(r.body.data).toBe(`${D.folders.contracts} Contracts/ (2 files)\n${D.folders.photos} Photos/ (1 file)\n2 items`);
  });

  it('pages with top and skip: total_count, returned_count, has_more and the next skip', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, top: 1, orderby: 'Name desc' }, json);
    expect(r.body.data).toMatchObject({ folder_id: D.folders.contracts, total_count: 2, returned_count: 1, has_more: true });
    expect(r.body.data.items[0].Name).toBe('offer.pdf');
    const text = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, top: 1, orderby: 'Name desc' });
    expect(text.body.data).toMatch(new RegExp(`^${D.files.offer} offer\\.pdf \\d+ B 2026-03-02\\nshowing 1 of 2 — pass skip 1 for the next page$`));
    const next = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, top: 1, skip: 1, orderby: 'Name desc' }, json);
    expect(next.body.data).toMatchObject({ returned_count: 1, has_more: false, items: [{ Name: 'nda-template.docx' }] });
  });

  it('summary_only returns exactly the summary fields of docs/spec.md#filebox-item', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, summary_only: true }, json);
    expect(r.body.data.summary_only).toBe(true);
    for (const item of r.body.data.items) expect(Object.keys(item).sort()).toEqual(['CreationDate', 'FileSizeBytes', 'Id', 'Name', 'odata.type']);
  });

  it('passes an OData filter the twin evaluates (startswith, isof, and)', async () => {
    const { h } = await setup();
    const sent = h.recordRequests('filebox');
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, filter: "startswith(Name,'NDA') eq true and isof('ShareFile.Api.Models.File')" }, json);
    expect(r.body.data.items.map((i: { Id: string }) => i.Id)).toEqual([D.files.nda]);
    expect(sent[0]!.query.get('$filter')).toBe("startswith(Name,'NDA') eq true and isof('ShareFile.Api.Models.File')");
  });

  it('refuses a malformed filter with the position and an example, before any call', async () => {
    const { h } = await setup();
    const sent = h.recordRequests('filebox');
    const r = await h.call('filebox/listChildren', { filter: "Name eq 'x' and" });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('INVALID_PARAMETER');
    expect(r.body.error.details).toMatchObject({ parameter: 'filter', position: 16 });
    expect(r.body.error.message).toMatch(/position 16\. Example: startswith\(Name,'Q1'\)/);
    const unknown = await h.call('filebox/listChildren', { orderby: 'Size desc' });
    expect(unknown.body.error.details).toMatchObject({ parameter: 'orderby' });
    expect(unknown.body.error.message).toMatch(/unknown property "Size"/);
    expect(sent).toEqual([]);
  });

  it('validates folder ids and aliases before the call', async () => {
    const { h } = await setup();
    const sent = h.recordRequests('filebox');
    for (const folder_id of [D.files.offer, 'Contracts', 'homes']) {
      const r = await h.call('filebox/listChildren', { folder_id });
      expect(r.body.error.details.parameter).toBe('folder_id');
    }
    expect(sent).toEqual([]);
    const alias = await h.call('filebox/listChildren', { folder_id: 'ALLSHARED' }, json);
    expect(alias.body.data.items.map((i: { Name: string }) => i.Name).sort()).toEqual(['Client Projects', 'Marketing']);
  });

  it('include_deleted shows items of the recycle bin', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, include_deleted: true });
    expect(r.body.data).toContain(`${D.files.oldDraft} retainer-draft-old.pdf`);
    expect(r.body.data).toContain('[in recycle bin]');
  });
});

describe('getItem', () => {
  it('reads a folder with its children and rights; summary_only keeps the summary fields', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/getItem', { item_id: D.folders.contracts, include_children: true }, json);
    expect(r.body.data).toMatchObject({ Id: D.folders.contracts, Name: 'Contracts', 'odata.type': 'ShareFile.Api.Models.Folder', FileCount: 2, Info: { CanManagePermissions: true } });
    expect(r.body.data.Children).toHaveLength(2);
    const text = await h.call('filebox/getItem', { item_id: D.folders.contracts });
    expect(text.body.data).toMatch(/^fo\S+ Contracts\/ \(2 files\)\n  path: \/Personal Folders\/Olivia Bennett\/Contracts\n  description: Signed and draft contracts/);
    const s = await h.call('filebox/getItem', { item_id: D.files.offer, summary_only: true }, json);
    expect(Object.keys(s.body.data).sort()).toEqual(['CreationDate', 'FileSizeBytes', 'Id', 'Name', 'odata.type']);
  });

  it('resolves the home alias and maps ShareFile errors (404 NotFound, 403 Forbidden)', async () => {
    const { h } = await setup();
    const home = await h.call('filebox/getItem', { item_id: 'home' }, json);
    expect(home.body.data).toMatchObject({ Id: D.folders.oliviaHome, Info: { IsMyHomeFolder: true } });
    const missing = await h.call('filebox/getItem', { item_id: 'fo999999-5f1e-4b0c-9a7d-000000999999' });
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404, upstream_code: 'NotFound' } });
    const denied = await h.call('filebox/getItem', { item_id: D.folders.contracts }, { key: SANDBOX_KEYS.member });
    expect(denied.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_code: 'Forbidden' } });
  });
});

describe('createFolder', () => {
  it('creates a folder in home; a name clash with overwrite false names the existing folder and sends nothing', async () => {
    const { h } = await setup();
    const made = await h.call('filebox/createFolder', { parent_id: 'home', name: 'Invoices', description: '2026' }, json);
    expect(made.body.data).toMatchObject({ Name: 'Invoices', Description: '2026', Parent: { Id: D.folders.oliviaHome } });
    const sent = h.recordRequests('filebox');
    const clash = await h.call('filebox/createFolder', { parent_id: 'home', name: 'contracts' });
    expect(clash.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'name', existing_id: D.folders.contracts } });
    expect(clash.body.error.message).toContain(`A folder named "Contracts" already exists in home (${D.folders.contracts})`);
    expect(writes(sent)).toEqual([]);
  });

  it('overwrite true replaces the existing folder (to the recycle bin); allshared creates a shared folder', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/createFolder', { parent_id: 'home', name: 'Photos', overwrite: true }, json);
    expect(r.body.data.Id).not.toBe(D.folders.photos);
    const old = await h.call('filebox/getItem', { item_id: D.folders.photos, include_deleted: true }, json);
    expect(old.body.data.HasPendingDeletion).toBe(true);
    const shared = await h.call('filebox/createFolder', { parent_id: 'allshared', name: 'Smith Estate' }, json);
    expect(shared.body.data).toMatchObject({ Parent: { Id: 'allshared' }, Info: { IsSharedFolder: true }, Path: '/Shared Folders/Smith Estate' });
    const bad = await h.call('filebox/createFolder', { parent_id: 'favorites', name: 'X' });
    expect(bad.body.error.details.parameter).toBe('parent_id');
    const slash = await h.call('filebox/createFolder', { parent_id: 'home', name: 'a/b' });
    expect(slash.body.error.details.parameter).toBe('name');
  });
});

describe('updateItem, deleteItem', () => {
  it('renames and describes an item; nothing to change is refused', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/updateItem', { item_id: D.files.nda, name: 'nda.docx', expiration_date: '2027-01-01T00:00:00Z' }, json);
    expect(r.body.data).toMatchObject({ Name: 'nda.docx', ExpirationDate: '2027-01-01T00:00:00.000Z' });
    // An ISO 8601 date alone is 00:00 UTC of that day; an offset is converted to UTC.
    const day = await h.call('filebox/updateItem', { item_id: D.files.nda, expiration_date: '2027-03-15' }, json);
    expect(day.body.data.ExpirationDate).toBe('2027-03-15T00:00:00.000Z');
    const zoned = await h.call('filebox/updateItem', { item_id: D.files.nda, expiration_date: '2027-03-15T17:00:00+02:00' }, json);
    expect(zoned.body.data.ExpirationDate).toBe('2027-03-15T15:00:00.000Z');
    for (const bad of ['2027-02-30', '15.03.2027', '2027-03-15 17:00']) {
      const r2 = await h.call('filebox/updateItem', { item_id: D.files.nda, expiration_date: bad });
      expect(r2.body.error, bad).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'expiration_date' } });
      expect(r2.body.error.message).toMatch(/ISO 8601 date/);
    }
    const none = await h.call('filebox/updateItem', { item_id: D.files.nda });
    expect(none.body.error.code).toBe('INVALID_PARAMETER');
    const alias = await h.call('filebox/updateItem', { item_id: 'home', name: 'x' });
    expect(alias.body.error.details.parameter).toBe('item_id');
  });

  it('moves an item to the recycle bin, where include_deleted finds it', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/deleteItem', { item_id: D.files.nda }, json);
    expect(r.body.data).toEqual({ message: `Moved ${D.files.nda} to the recycle bin.`, single_version: false });
    const gone = await h.call('filebox/getItem', { item_id: D.files.nda });
    expect(gone.body.error.code).toBe('NOT_FOUND');
    const listed = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, include_deleted: true }, json);
    expect(listed.body.data.items.find((i: { Id: string }) => i.Id === D.files.nda)).toMatchObject({ HasPendingDeletion: true });
  });

  it('single_version deletes only the current version: the previous one is current again', async () => {
    const { h } = await setup();
    await h.call('filebox/deleteItem', { item_id: D.files.offer, single_version: true });
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, filter: "Name eq 'offer.pdf'" }, json);
    expect(r.body.data.items.map((i: { Id: string }) => i.Id)).toEqual([D.files.offerV1]);
    const folder = await h.call('filebox/deleteItem', { item_id: D.folders.photos, single_version: true });
    expect(folder.body.error.details.parameter).toBe('single_version');
  });
});

describe('copyItem, moveItem', () => {
  it('copy makes a new id at the target; move keeps the id', async () => {
    const { h } = await setup();
    const copy = await h.call('filebox/copyItem', { item_id: D.files.nda, target_folder_id: D.folders.photos }, json);
    // The copy itself: its Id is the new id; the source beside it.
    expect(copy.body.data).toMatchObject({ Name: 'nda-template.docx', source_id: D.files.nda, Parent: { Id: D.folders.photos } });
    expect(copy.body.data.Id).not.toBe(D.files.nda);
    expect((await h.call('filebox/getItem', { item_id: copy.body.data.Id }, json)).body.data.Parent.Id).toBe(D.folders.photos);
    const move = await h.call('filebox/moveItem', { item_id: D.files.sitePlan, target_folder_id: D.folders.contracts }, json);
    expect(move.body.data).toMatchObject({ moved: true, from_folder_id: D.folders.photos, item: { Id: D.files.sitePlan, Parent: { Id: D.folders.contracts } } });
  });

  it('refuses a name clash at the target unless overwrite, which replaces the other item', async () => {
    const { h } = await setup();
    await h.call('filebox/copyItem', { item_id: D.files.nda, target_folder_id: D.folders.photos });
    const sent = h.recordRequests('filebox');
    const clash = await h.call('filebox/copyItem', { item_id: D.files.nda, target_folder_id: D.folders.photos });
    expect(clash.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'target_folder_id' } });
    const moveClash = await h.call('filebox/moveItem', { item_id: D.files.nda, target_folder_id: D.folders.photos });
    expect(moveClash.body.error.message).toMatch(/already exists/);
    expect(writes(sent)).toEqual([]);
    const first = (await h.call('filebox/listChildren', { folder_id: D.folders.photos, filter: "Name eq 'nda-template.docx'" }, json)).body.data.items[0].Id;
    const moved = await h.call('filebox/moveItem', { item_id: D.files.nda, target_folder_id: D.folders.photos, overwrite: true }, json);
    expect(moved.body.data).toMatchObject({ moved: true, replaced_id: first, item: { Id: D.files.nda } });
  });

  it('follows the AsyncOperation of a large copy and returns the copy; a failed one is an error with its id', async () => {
    const { h, twin } = await setup();
    // A folder large enough for ShareFile to copy in the background.
    for (let i = 0; i <= ASYNC_COPY_THRESHOLD; i++) {
      const id = nextId(twin.state, 'file');
      twin.state.items.set(id, { id, kind: 'file', name: `scan-${i}.pdf`, description: '', parentId: D.folders.photos, creatorId: D.users.olivia, created: NOW, edited: NOW, expiration: null, deleted: false, streamId: `st${id}`, version: 1, content: Buffer.from('x') });
    }
    const sent = h.recordRequests('filebox');
    const r = await h.call('filebox/copyItem', { item_id: D.folders.photos, target_folder_id: D.folders.contracts }, json);
    expect(r.body.data).toMatchObject({ Name: 'Photos', FileCount: ASYNC_COPY_THRESHOLD + 2, source_id: D.folders.photos });
    expect(sent.filter((s) => s.path.includes('AsyncOperations')).length).toBeGreaterThan(0);
    const pending = twin.faults.inject({ path: /AsyncOperations/, fault: { status: 200, body: { 'odata.type': 'ShareFile.Api.Models.AsyncOperation', Id: 'ao-slow', Operation: 'Copy', State: 'InProcess' } } });
    const slow = await h.call('filebox/copyItem', { item_id: D.folders.photos, target_folder_id: D.folders.priyaHome }, json);
    expect(slow.body.data).toEqual({ source_id: D.folders.photos, pending: { operation_id: 'ao-slow', state: 'InProcess' } });
    const slowText = await h.call('filebox/copyItem', { item_id: D.folders.photos, target_folder_id: D.folders.marcusHome });
    expect(slowText.body.data).toMatch(/still running in ShareFile: operation ao-slow, state InProcess/);
    pending.remove();
    twin.faults.inject({ path: /AsyncOperations/, fault: { status: 200, body: { 'odata.type': 'ShareFile.Api.Models.AsyncOperation', Id: 'ao-failed', Operation: 'Copy', State: 'Failed' } } });
    const failed = await h.call('filebox/copyItem', { item_id: D.folders.photos, target_folder_id: D.folders.oliviaBox });
    expect(failed.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { operation_id: 'ao-failed', state: 'Failed' } });
  });
});

describe('searchItems', () => {
  it('finds by content text everywhere the key sees, and within a folder subtree by type', async () => {
    const { h } = await setup();
    const r = await h.call('filebox/searchItems', { query: 'budget' }, json);
    expect(r.body.data.items.map((i: { Id: string }) => i.Id)).toEqual([D.files.proposal]);
    const folders = await h.call('filebox/searchItems', { query: 'o', folder_id: D.folders.clientProjects, item_type: 'folder' });
    expect(folders.body.data).toBe(`${D.folders.ortiz} Ortiz Renovation/ 2025-06-10 in Client Projects (${D.folders.clientProjects})\n1 result`);
    const nameOnly = await h.call('filebox/searchItems', { query: 'budget', name_only: true }, json);
    expect(nameOnly.body.data.total_count).toBe(0);
    const client = await h.call('filebox/searchItems', { query: '.pdf' }, { ...json, key: SANDBOX_KEYS.member });
    expect(client.body.data.items.map((i: { Name: string }) => i.Name)).toEqual(['proposal.pdf']);
  });
});

describe('uploadFile, downloadFile', () => {
  it('uploads base64 content in two steps, and downloads it by a link that needs no key until it expires', async () => {
    const { h, twin } = await setup();
    const sent = h.recordRequests('filebox');
    const up = await h.call('filebox/uploadFile', { folder_id: D.folders.contracts, files: [{ filename: 'signature.txt', content: Buffer.from('Signed: yes').toString('base64') }] }, json);
    expect(up.body.data).toMatchObject({ folder_id: D.folders.contracts, uploaded: 1, files: [{ filename: 'signature.txt', status: 'uploaded', new_version: false, item: { Name: 'signature.txt', FileSizeBytes: 11 } }] });
    expect(writes(sent)).toEqual([`POST /sf/v3/Items(${D.folders.contracts})/Upload2`, expect.stringMatching(/^POST \/upload-streaming\//)]);
    const link = await h.call('filebox/downloadFile', { item_id: up.body.data.files[0].item.Id }, json);
    const res = await twin.fetch(link.body.data.download_url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Signed: yes');
    twin.clock.advance(DOWNLOAD_TOKEN_TTL_MS + 1000);
    expect((await twin.fetch(link.body.data.download_url)).status).toBe(410);
  });

  it('overwrite uploads a new version (same StreamID); without it a clash is refused before any byte is sent', async () => {
    const { h } = await setup();
    const sent = h.recordRequests('filebox');
    // The clash is the second of two files: neither goes up.
    const clash = await h.call('filebox/uploadFile', { folder_id: D.folders.contracts, files: [{ filename: 'new.txt', content: 'SGVsbG8=' }, { filename: 'offer.pdf', content: 'SGVsbG8=' }] });
    expect(clash.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'files.1.filename', existing_id: D.files.offer } });
    expect(writes(sent)).toEqual([]);
    const v3 = await h.call('filebox/uploadFile', { folder_id: D.folders.contracts, files: [{ filename: 'offer.pdf', content: 'SGVsbG8=' }], overwrite: true }, json);
    expect(v3.body.data.files[0]).toMatchObject({ new_version: true, item: { Name: 'offer.pdf', StreamID: 'st-offer', FileSizeBytes: 5 } });
    expect(v3.body.data.files[0].item.Id).not.toBe(D.files.offer);
  });

  it('uploads several files, from a URL (guarded download) and from content, in one call; checks every entry first', async () => {
    const { h, twin } = await setup({ ALLOW_HTTP_HOSTS: '127.0.0.1' });
    const sent = h.recordRequests('filebox');
    const r = await h.call('filebox/uploadFile', { folder_id: 'home', files: [{ filename: 'minutes.txt', url: `${site()}/files/minutes` }, { filename: 'agenda.txt', content: Buffer.from('1. Budget').toString('base64') }] }, json);
    expect(r.body.data.uploaded).toBe(2);
    expect(r.body.data.files.map((f: { item: { Name: string; FileSizeBytes: number } }) => [f.item.Name, f.item.FileSizeBytes])).toEqual([['minutes.txt', 31], ['agenda.txt', 9]]);
    expect(writes(sent)).toHaveLength(4);
    expect((await h.call('filebox/uploadFile', { folder_id: 'home', files: [{ filename: 'a.txt', content: 'SGVsbG8=' }] })).body.data).toMatch(/^uploaded fi\S+ a\.txt [^]*\n1 file uploaded to home$/);
    const refused: [unknown, string][] = [
      [[{ filename: 'a.txt', url: `${site()}/x`, content: 'SGVsbG8=' }], 'files.0'],
      [[{ filename: 'a.txt', content: 'not base64!' }], 'files.0.content'],
      [[{ filename: 'x.pdf', url: 'https://10.0.0.1/x.pdf' }], 'files.0.url'],
      [[{ filename: 'a.txt', content: 'SGVsbG8=' }, { filename: 'A.TXT', content: 'SGVsbG8=' }], 'files.1.filename'],
      [[{ filename: 'a:b.txt', content: 'SGVsbG8=' }], 'files.0.filename'],
    ];
    const before = twin.state.items.size;
    for (const [files, parameter] of refused) {
      const bad = await h.call('filebox/uploadFile', { folder_id: 'home', files });
      expect(bad.body.error, parameter).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    }
    expect(twin.state.items.size).toBe(before);
  });

  it('takes the one upload shape only: the former names (file_url, content_base64, file_name) are refused, nothing uploaded', async () => {
    const { h, twin } = await setup();
    const before = twin.state.items.size;
    const alone = await h.call('filebox/uploadFile', { folder_id: 'home', file_url: 'https://example.com/a.pdf' });
    expect(alone.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'files' } });
    for (const old of ['file_url', 'content_base64', 'file_name']) {
      const mixed = await h.call('filebox/uploadFile', { folder_id: 'home', files: [{ filename: 'a.txt', content: 'SGVsbG8=' }], [old]: 'x' });
      expect(mixed.body.error, old).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: old } });
    }
    expect(twin.state.items.size).toBe(before);
  });

  it('downloadFile takes file ids only and needs download rights', async () => {
    const { h } = await setup();
    const folder = await h.call('filebox/downloadFile', { item_id: D.folders.contracts });
    expect(folder.body.error.details.parameter).toBe('item_id');
    const denied = await h.call('filebox/downloadFile', { item_id: D.files.offer }, { key: SANDBOX_KEYS.member });
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const text = await h.call('filebox/downloadFile', { item_id: D.files.proposal }, { key: SANDBOX_KEYS.member });
    expect(text.body.data).toMatch(/^fi\S+ proposal\.pdf \d+ B\ndownload \(no key needed, expires\): https:\/\/acme\.sf-api\.com\/download\?dt=/);
  });
});
