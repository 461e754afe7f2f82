import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, principalIdInput } from '../../params';
import { accessLine, toAccessControl, type AccessControl } from '../../access/render';
import { permissionBody, permissionInputs } from '../../access/inputs';
import { checkFolderOnly } from '../../access/checks';

export const createAccessControl = fileboxTool({
  name: 'createAccessControl',
  description:
    'Give a user or group (principal) access to a file or folder: can_view and can_download default to true; can_upload (folders), can_delete, ' +
    'can_manage_permissions and the notify switches default to false. can_view is what lets the principal see the item at all. send_notification emails ' +
    'them, with message. A principal who already has access: use updateAccessControl. Returns the access control.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…).'),
    principal_id: principalIdInput('The user id (GUID) or group id (g…) to give access to.'),
    ...permissionInputs,
    can_view: permissionInputs.can_view.default(true),
    can_download: permissionInputs.can_download.default(true),
    send_notification: z.boolean().default(false).describe('Email the principal about the new access (default false).'),
    message: z.string().max(2000).optional().describe('Personal message of that email.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<AccessControl> {
    checkFolderOnly(input.item_id, input);
    if (!input.can_view) throw invalidParameter('can_view', 'true', 'Invalid parameter "can_view": without view no other right can be used; to take access away use deleteAccessControl.');
    const w = await client.createAccessControl(
      input.item_id,
      { Principal: { Id: input.principal_id }, ...permissionBody(input), ...(input.message ? { Message: input.message } : {}) },
      { notify: input.send_notification },
    );
    return toAccessControl(w);
  },
  text: (a: AccessControl, input) => `granted on ${input.item_id}: ${accessLine(a)}${input.send_notification ? ' — notified' : ''}`,
  example: {
    input: { item_id: 'fo000021-5f1e-4b0c-9a7d-000000000021', principal_id: '00000004-7a1e-4c2b-8d3f-000000000004' },
    result: {
      Id: 'principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000021-5f1e-4b0c-9a7d-000000000021',
      url: 'https://acme.sf-api.com/sf/v3/AccessControls(principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000021-5f1e-4b0c-9a7d-000000000021)',
      Principal: { 'odata.type': 'ShareFile.Api.Models.User', Id: '00000004-7a1e-4c2b-8d3f-000000000004', url: 'https://acme.sf-api.com/sf/v3/Users(00000004-7a1e-4c2b-8d3f-000000000004)', Name: 'Daniel Ortiz' },
      CanView: true, CanDownload: true, CanUpload: false, CanDelete: false, CanManagePermissions: false, NotifyOnUpload: false, NotifyOnDownload: false, IsOwner: false,
      'odata.type': 'ShareFile.Api.Models.AccessControl',
    },
  },
});
