import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, principalIdInput } from '../../params';

interface Revoked {
  message: string;
}

export const deleteAccessControl = fileboxTool({
  name: 'deleteAccessControl',
  description:
    'Take away all access a user or group was given on a file or folder (every right and notification at once). Access they have through a parent folder ' +
    'or a group stays. Returns {message}.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…).'),
    principal_id: principalIdInput('The user id (GUID) or group id (g…) whose access goes.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, principal_id }, { client }): Promise<Revoked> {
    await client.deleteAccessControl(principal_id, item_id);
    return { message: `Revoked all access of ${principal_id} on ${item_id}.` };
  },
  text: (r: Revoked) => r.message,
  example: {
    input: { item_id: 'fo000020-5f1e-4b0c-9a7d-000000000020', principal_id: '00000004-7a1e-4c2b-8d3f-000000000004' },
    result: { message: 'Revoked all access of 00000004-7a1e-4c2b-8d3f-000000000004 on fo000020-5f1e-4b0c-9a7d-000000000020.' },
  },
});
