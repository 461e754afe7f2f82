import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { fileboxTool } from '../../tool';
import { itemIdInput } from '../../params';
import { accessLine, toAccessControl, type AccessControl } from '../../access/render';

interface Controls {
  item_id: string;
  total_count: number;
  access_controls: AccessControl[];
}

export const getItemAccessControls = fileboxTool({
  name: 'getItemAccessControls',
  description:
    'List who has access to a file or folder and with which rights: one access control per user or group (principal), with view, download, upload, delete, ' +
    'manage-permissions and notification flags; the owner is marked. Ids are composed of principal and item id. Read-only.',
  input: z.strictObject({ item_id: itemIdInput('Item id (fo… or fi…), or home / box.') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id }, { client }): Promise<Controls> {
    const feed = await client.listAccessControls(item_id);
    return { item_id, total_count: feed['odata.count'] ?? feed.value.length, access_controls: feed.value.map(toAccessControl) };
  },
  text: (r: Controls) => [...r.access_controls.map(accessLine), `${plural(r.total_count, 'access control')} on ${r.item_id}`].join('\n'),
  example: {
    input: { item_id: 'fo000020-5f1e-4b0c-9a7d-000000000020' },
    result: {
      item_id: 'fo000020-5f1e-4b0c-9a7d-000000000020',
      total_count: 1,
      access_controls: [
        {
          Id: 'principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000020-5f1e-4b0c-9a7d-000000000020',
          url: 'https://acme.sf-api.com/sf/v3/AccessControls(principalid=00000004-7a1e-4c2b-8d3f-000000000004,itemid=fo000020-5f1e-4b0c-9a7d-000000000020)',
          Principal: { 'odata.type': 'ShareFile.Api.Models.User', Id: '00000004-7a1e-4c2b-8d3f-000000000004', url: 'https://acme.sf-api.com/sf/v3/Users(00000004-7a1e-4c2b-8d3f-000000000004)', Name: 'Daniel Ortiz', Email: 'daniel@ortizbuilders.example' },
          CanView: true, CanDownload: true, CanUpload: true, CanDelete: false, CanManagePermissions: false, NotifyOnUpload: true, NotifyOnDownload: false, IsOwner: false,
          'odata.type': 'ShareFile.Api.Models.AccessControl',
        },
      ],
    },
  },
});
