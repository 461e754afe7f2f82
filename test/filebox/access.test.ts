import { describe, expect, it } from 'vitest';
import { SANDBOX_KEYS, SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { harness } from '../helpers/harness';

const json = { query: 'format=json' };
const member = { key: SANDBOX_KEYS.member };

describe('access controls', () => {
  it('getItemAccessControls lists principals with their rights, the owner marked, ids composed of principal and item', async () => {
    const h = await harness();
    const r = await h.call('filebox/getItemAccessControls', { item_id: D.folders.ortiz }, json);
    expect(r.body.data.total_count).toBe(2);
    expect(r.body.data.access_controls[1]).toMatchObject({
      Id: `principalid=${D.users.daniel},itemid=${D.folders.ortiz}`,
      Principal: { Id: D.users.daniel, Name: 'Daniel Ortiz' },
      CanView: true, CanDownload: true, CanUpload: true, CanDelete: false, NotifyOnUpload: true, IsOwner: false,
    });
    const text = await h.call('filebox/getItemAccessControls', { item_id: D.folders.clientProjects });
    expect(text.body.data).toBe(
      `user ${D.users.olivia} Olivia Bennett <olivia.bennett@acmelegal.example>: view, download, upload, delete, manage permissions (owner)\n` +
        `group ${D.groups.partners} Partners: view, download, upload, delete\n2 access controls on ${D.folders.clientProjects}`,
    );
  });

  it('a client user gains access through createAccessControl and loses it through deleteAccessControl (the twin enforces can_view)', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const before = await h.call('filebox/listChildren', { folder_id: D.folders.contracts }, member);
    expect(before.body.error.code).toBe('FORBIDDEN');
    const granted = await h.call('filebox/createAccessControl', { item_id: D.folders.contracts, principal_id: D.users.daniel, send_notification: true, message: 'Your contract is here.' }, json);
    expect(granted.body.data).toMatchObject({ CanView: true, CanDownload: true, CanUpload: false, Principal: { Id: D.users.daniel } });
    expect(twin.state.outbox.at(-1)).toMatchObject({ to: 'daniel@ortizbuilders.example', body: 'Your contract is here.' });
    const during = await h.call('filebox/listChildren', { folder_id: D.folders.contracts }, { ...json, ...member });
    expect(during.body.data.total_count).toBe(2);
    const shared = await h.call('filebox/listChildren', { folder_id: 'allshared' }, { ...json, ...member });
    expect(shared.body.data.items.map((i: { Id: string }) => i.Id)).toContain(D.folders.ortiz);
    // can_view only: the client sees but cannot upload.
    const upload = await h.call('filebox/createFolder', { parent_id: D.folders.contracts, name: 'Mine' }, member);
    expect(upload.body.error.code).toBe('FORBIDDEN');
    const revoked = await h.call('filebox/deleteAccessControl', { item_id: D.folders.contracts, principal_id: D.users.daniel }, json);
    expect(revoked.body.data.message).toContain('Revoked all access');
    const after = await h.call('filebox/getItem', { item_id: D.files.offer }, member);
    expect(after.body.error.code).toBe('FORBIDDEN');
  });

  it('checks the inputs before the call: can_upload only on folders, can_view needed, principal a user or group id', async () => {
    const h = await harness();
    const sent = h.recordRequests('filebox');
    const file = await h.call('filebox/createAccessControl', { item_id: D.files.offer, principal_id: D.users.daniel, can_upload: true });
    expect(file.body.error.details.parameter).toBe('can_upload');
    const noView = await h.call('filebox/createAccessControl', { item_id: D.folders.contracts, principal_id: D.users.daniel, can_view: false });
    expect(noView.body.error.details.parameter).toBe('can_view');
    const badPrincipal = await h.call('filebox/createAccessControl', { item_id: D.folders.contracts, principal_id: 'daniel@ortizbuilders.example' });
    expect(badPrincipal.body.error.details.parameter).toBe('principal_id');
    const nothing = await h.call('filebox/updateAccessControl', { item_id: D.folders.ortiz, principal_id: D.users.daniel });
    expect(nothing.body.error.code).toBe('INVALID_PARAMETER');
    expect(sent).toEqual([]);
    const dup = await h.call('filebox/createAccessControl', { item_id: D.folders.ortiz, principal_id: D.users.daniel });
    expect(dup.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'principal_id', upstream_status: 409, upstream_code: 'Conflict' } });
    expect(dup.body.error.message).toContain('already has an access control on this item');
  });

  it('updateAccessControl changes the given switches, for a group too; a client cannot manage permissions', async () => {
    const h = await harness();
    const r = await h.call('filebox/updateAccessControl', { item_id: D.folders.ortiz, principal_id: D.users.daniel, can_upload: false, notify_on_download: true }, json);
    expect(r.body.data).toMatchObject({ CanView: true, CanUpload: false, NotifyOnUpload: true, NotifyOnDownload: true });
    const g = await h.call('filebox/updateAccessControl', { item_id: D.folders.clientProjects, principal_id: D.groups.partners, can_delete: false });
    expect(g.body.data).toBe(`updated on ${D.folders.clientProjects}: group ${D.groups.partners} Partners: view, download, upload`);
    const missing = await h.call('filebox/updateAccessControl', { item_id: D.folders.contracts, principal_id: D.users.daniel, can_view: true });
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const byClient = await h.call('filebox/createAccessControl', { item_id: D.folders.ortiz, principal_id: D.users.sofia }, member);
    expect(byClient.body.error.code).toBe('FORBIDDEN');
  });

  it('follows an AsyncOperation answered for a permission change, then reads the result', async () => {
    const h = await harness();
    const twin = h.twin<ShareFileTwin>('filebox');
    const op = { 'odata.type': 'ShareFile.Api.Models.AsyncOperation', Id: 'ao-acl', Operation: 'AccessControlUpdate' };
    twin.faults.inject({ method: 'PATCH', path: /AccessControls$/, times: 1, fault: { status: 200, body: { ...op, State: 'Scheduled' } } });
    twin.faults.inject({ method: 'GET', path: /AsyncOperations\(ao-acl\)/, times: 1, fault: { status: 200, body: { ...op, State: 'Completed' } } });
    const sent = h.recordRequests('filebox');
    const r = await h.call('filebox/updateAccessControl', { item_id: D.folders.ortiz, principal_id: D.users.daniel, can_delete: true }, json);
    expect(r.body.data).toMatchObject({ Principal: { Id: D.users.daniel } });
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      `PATCH /sf/v3/Items(${D.folders.ortiz})/AccessControls`,
      'GET /sf/v3/AsyncOperations(ao-acl)',
      `GET /sf/v3/Items(${D.folders.ortiz})/AccessControls`,
    ]);
  });
});
