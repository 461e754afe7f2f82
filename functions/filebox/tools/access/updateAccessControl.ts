import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, principalIdInput } from '../../params';
import { accessLine, toAccessControl, type AccessControl } from '../../access/render';
import { permissionBody, permissionInputs, type PermissionInput } from '../../access/inputs';
import { checkFolderOnly } from '../../access/checks';
import { followAsync, isAsyncOperation } from '../../items/async';

export const updateAccessControl = fileboxTool({
  name: 'updateAccessControl',
  description:
    'Change the rights of a user or group on a file or folder: pass only the switches to change. To take all access away use deleteAccessControl. ' +
    'ShareFile may apply the change in the background: the tool waits for it. Returns the access control.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…).'),
    principal_id: principalIdInput('The user id (GUID) or group id (g…) whose access changes.'),
    ...permissionInputs,
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run(input, { client, deadline }): Promise<AccessControl> {
    checkFolderOnly(input.item_id, input);
    const body = permissionBody(input as PermissionInput);
    if (!Object.keys(body).length) throw invalidParameter('can_view', 'at least one permission or notify switch', 'Nothing to change: pass at least one of can_view, can_download, can_upload, can_delete, can_manage_permissions, notify_on_download, notify_on_upload.');
    const answer = await client.updateAccessControl(input.item_id, { Principal: { Id: input.principal_id }, ...body });
    if (!isAsyncOperation(answer)) return toAccessControl(answer);
    const done = await followAsync(client, answer, deadline);
    if ('operation_id' in done) throw new ToolError('INTERNAL_ERROR', `ShareFile is still applying the change (operation ${done.operation_id}, state ${done.state}); read it later with getItemAccessControls.`, { ...done });
    const now = (await client.listAccessControls(input.item_id)).value.find((a) => a.Principal.Id === input.principal_id);
    if (!now) throw new ToolError('NOT_FOUND', `No access control of ${input.principal_id} on ${input.item_id} after the change.`);
    return toAccessControl(now);
  },
  text: (a: AccessControl, input) => `updated on ${input.item_id}: ${accessLine(a)}`,
  example: {
    input: { item_id: 'fo000020-5f1e-4b0c-9a7d-000000000020', principal_id: '00000004-7a1e-4c2b-8d3f-000000000004', can_upload: false },
    result: {
      Id: 'principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000020-5f1e-4b0c-9a7d-000000000020',
      url: 'https://acme.sf-api.com/sf/v3/AccessControls(principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000020-5f1e-4b0c-9a7d-000000000020)',
      Principal: { 'odata.type': 'ShareFile.Api.Models.User', Id: '00000004-7a1e-4c2b-8d3f-000000000004', url: 'https://acme.sf-api.com/sf/v3/Users(00000004-7a1e-4c2b-8d3f-000000000004)', Name: 'Daniel Ortiz' },
      CanView: true, CanDownload: true, CanUpload: false, CanDelete: false, CanManagePermissions: false, NotifyOnUpload: true, NotifyOnDownload: false, IsOwner: false,
      'odata.type': 'ShareFile.Api.Models.AccessControl',
    },
  },
});
