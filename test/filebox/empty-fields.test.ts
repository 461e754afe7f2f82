import { describe, expect, it } from 'vitest';
import { SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { harness } from '../helpers/harness';

// Every field the specification lists for an item, share, user, group or access control is in the JSON
// answer: its value, or null when ShareFile gives none — never left out. Each row makes the twin
// answer a bare record (ids only) for one read and checks the tool's JSON, then that the text of
// the same answer prints no "null".
const json = { query: 'format=json' };
const ITEM = ['Id', 'Name', 'FileName', 'odata.type', 'url', 'Parent', 'CreationDate', 'ProgenyEditDate', 'Description', 'Path', 'CreatorFirstName', 'CreatorLastName', 'FileSizeBytes', 'FileCount', 'State', 'StreamID', 'Info'];
const USER = ['Id', 'FullName', 'FirstName', 'LastName', 'Company', 'DateCreated', 'FullNameShort', 'Initials', 'Emails', 'Email', 'Username', 'Domain', 'IsConfirmed', 'IsDeleted', 'IsBillingContact', 'IsAdministrator', 'IsEmployee', 'Roles', 'CanCreateFolders', 'CanUseFileBox', 'CanManageUsers', 'IsVirtualClient', 'url'];
const GROUP = ['Id', 'Name', 'IsShared', 'NumberOfContacts', 'odata.type', 'url', 'Contacts'];
const CONTACT = ['Id', 'Name', 'FirstName', 'LastName', 'Email', 'Company', 'IsConfirmed', 'IsDisabled', 'LastAnyLogin', 'CreatedDate', 'url'];
const ACCESS = ['Id', 'Principal', 'CanUpload', 'CanDownload', 'CanView', 'CanDelete', 'CanManagePermissions', 'NotifyOnUpload', 'NotifyOnDownload', 'IsOwner', 'odata.type', 'url'];
const SHARE = ['Id', 'AliasID', 'ShareType', 'Title', 'HasSentMessage', 'RequireLogin', 'RequireUserInfo', 'ShareAccessLevel', 'CreationDate', 'ExpirationDate', 'MaxDownloads', 'TotalDownloads', 'IsViewOnly', 'IsArchived', 'UsesStreamIDs', 'Uri', 'ShareSubType', 'ShareAccessRight', 'url'];
const HIT = ['Id', 'Name', 'ItemType', 'ParentID', 'ParentName', 'Path', 'FileSizeBytes', 'CreationDate', 'CreatorName'];

const file = (id: string) => ({ 'odata.type': 'ShareFile.Api.Models.File', Id: id });
const feed = (value: unknown[]) => ({ 'odata.count': value.length, value });
const contact = { Id: D.users.sofia, Email: 'sofia.rossi@rossi-design.example' };

interface Row {
  tool: string;
  /** What the row checks (the test's name). */
  what: string;
  params: Record<string, unknown>;
  /** The bare answer of the read the tool makes. */
  method: string;
  path: RegExp;
  body: Record<string, unknown>;
  /** The record(s) in the tool's JSON answer. */
  records: (data: any) => Record<string, unknown>[];
  fields: string[];
  /** Fields that the bare record leaves empty, so they must be null. */
  nulls: string[];
}

const rows: Row[] = [
  { tool: 'getShare', what: 'the share', params: { share_id: D.shares.ortizRequest }, method: 'GET', path: /\/Shares\([^)]+\)$/, body: { 'odata.type': 'ShareFile.Api.Models.Share', Id: D.shares.ortizRequest, ShareType: 'Request' }, records: (d) => [d], fields: SHARE, nulls: ['Title', 'ExpirationDate', 'MaxDownloads', 'TotalDownloads', 'Uri', 'url'] },
  { tool: 'getItem', what: 'the item', params: { item_id: D.files.offer }, method: 'GET', path: /\/Items\([^)]+\)$/, body: file(D.files.offer), records: (d) => [d], fields: ITEM, nulls: ['Name', 'url', 'Parent', 'CreationDate', 'Description', 'Path', 'FileSizeBytes', 'StreamID', 'Info'] },
  { tool: 'listChildren', what: 'each child', params: { folder_id: D.folders.contracts }, method: 'GET', path: /\/Items\([^)]+\)\/Children$/, body: feed([file(D.files.offer)]), records: (d) => d.items, fields: ITEM, nulls: ['Name', 'Parent', 'FileSizeBytes', 'Info'] },
  { tool: 'getTopLevelFolders', what: 'each folder', params: {}, method: 'GET', path: /\/Items\([^)]+\)\/Children$|\/Items$/, body: feed([{ 'odata.type': 'ShareFile.Api.Models.Folder', Id: 'allshared' }]), records: (d) => d.folders, fields: ITEM, nulls: ['FileCount', 'CreationDate'] },
  {
    tool: 'searchItems', what: 'each hit', params: { query: 'offer' }, method: 'POST', path: /AdvancedSimpleSearch$/,
    body: { PartialResults: false, TimedOut: false, TotalCount: 1, Results: [{ ItemID: D.files.offer, ParentID: D.folders.contracts, ItemType: 'File', FileName: 'offer.pdf' }] },
    records: (d) => d.items, fields: HIT, nulls: ['ParentName', 'Path', 'FileSizeBytes', 'CreationDate', 'CreatorName'],
  },
  { tool: 'getCurrentUser', what: 'the user', params: {}, method: 'GET', path: /\/Users$/, body: { 'odata.type': 'ShareFile.Api.Models.AccountUser', Id: D.users.olivia }, records: (d) => [d], fields: USER, nulls: ['FullName', 'Email', 'Company', 'Roles', 'IsAdministrator', 'url'] },
  { tool: 'getUser', what: 'the user', params: { user_id: D.users.sofia }, method: 'GET', path: /\/Users\([^)]+\)$/, body: { 'odata.type': 'ShareFile.Api.Models.User', Id: D.users.sofia }, records: (d) => [d], fields: USER, nulls: ['FullName', 'Email', 'DateCreated', 'Domain'] },
  { tool: 'listUsers', what: 'each user', params: { is_employee: false }, method: 'GET', path: /\/Accounts\/Clients$/, body: feed([contact]), records: (d) => d.users, fields: USER, nulls: ['Company', 'DateCreated', 'IsConfirmed', 'Roles', 'url'] },
  { tool: 'getGroup', what: 'the group', params: { group_id: D.groups.partners, include_contacts: true }, method: 'GET', path: /\/Groups\([^)]+\)$/, body: { 'odata.type': 'ShareFile.Api.Models.Group', Id: D.groups.partners, Name: 'Partners', Contacts: [contact] }, records: (d) => [d], fields: GROUP, nulls: ['IsShared', 'NumberOfContacts', 'url'] },
  { tool: 'getGroup', what: 'each member', params: { group_id: D.groups.partners, include_contacts: true }, method: 'GET', path: /\/Groups\([^)]+\)$/, body: { 'odata.type': 'ShareFile.Api.Models.Group', Id: D.groups.partners, Name: 'Partners', Contacts: [contact] }, records: (d) => d.Contacts, fields: CONTACT, nulls: ['Name', 'Company', 'IsConfirmed', 'LastAnyLogin', 'url'] },
  { tool: 'listGroups', what: 'each group', params: {}, method: 'GET', path: /\/Groups$/, body: feed([{ 'odata.type': 'ShareFile.Api.Models.Group', Id: D.groups.partners, Name: 'Partners' }]), records: (d) => d.groups, fields: GROUP, nulls: ['IsShared', 'NumberOfContacts', 'url', 'Contacts'] },
  {
    tool: 'createUser', what: 'the new user, with the creation fields', params: { email: 'lena@northwind.example' }, method: 'POST', path: /\/Users$/,
    body: { 'odata.type': 'ShareFile.Api.Models.User', Id: '000003ea-7a1e-4c2b-8d3f-0000000003ea', Email: 'lena@northwind.example' },
    records: (d) => [d], fields: [...USER, 'TotalSharedFiles', 'Contacted', 'ReferredBy'], nulls: ['FullName', 'Company', 'Roles', 'TotalSharedFiles', 'Contacted', 'ReferredBy'],
  },
  {
    tool: 'getItemAccessControls', what: 'each access control', params: { item_id: D.folders.ortiz }, method: 'GET', path: /\/Items\([^)]+\)\/AccessControls$/,
    body: feed([{ 'odata.type': 'ShareFile.Api.Models.AccessControl', Id: `principalid=${D.users.daniel},itemid=${D.folders.ortiz}`, Principal: { Id: D.users.daniel }, CanUpload: false, CanDownload: true, CanView: true, CanDelete: false, CanManagePermissions: false, NotifyOnUpload: false, NotifyOnDownload: false }]),
    records: (d) => d.access_controls, fields: ACCESS, nulls: ['url'],
  },
];

describe('filebox: listed fields present as null when empty', () => {
  it.each(rows.map((r) => [`${r.tool}: ${r.what}`, r] as const))('%s', async (_name, row) => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    twin.faults.inject({ method: row.method, path: row.path, times: 2, fault: { status: 200, body: row.body } });
    const r = await h.call(`filebox/${row.tool}`, row.params, json);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const records = row.records(r.body.data);
    expect(records.length).toBeGreaterThan(0);
    for (const rec of records) {
      expect(Object.keys(rec)).toEqual(expect.arrayContaining(row.fields));
      for (const k of row.nulls) expect(rec[k], k).toBeNull();
      for (const k of row.fields) expect(rec[k], k).not.toBeUndefined();
    }
    const text = await h.call(`filebox/${row.tool}`, row.params);
    expect(text.status).toBe(200);
    expect(text.body.data).not.toMatch(/\bnull\b|undefined|NaN/);
  });

  it('summary forms carry their own fields only, null when empty', async () => {
    const h = await harness();
    h.twin<ShareFileTwin>('filebox').faults.inject({ method: 'GET', path: /\/Items\([^)]+\)\/Children$/, times: 1, fault: { status: 200, body: feed([file(D.files.offer)]) } });
    const r = await h.call('filebox/listChildren', { folder_id: D.folders.contracts, summary_only: true }, json);
    expect(r.body.data.items[0]).toEqual({ Id: D.files.offer, Name: null, 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: null, CreationDate: null });
  });
});
