import * as z from 'zod';
import { checkPair } from '../../associations/pairs';
import { objectType, recordId } from '../../params';
import { crmTool } from '../../tool';

interface Associated {
  associated: true;
  from: string;
  to: string;
  /** The default association type HubSpot used for the pair. */
  typeId?: number;
}

export const createAssociation = crmTool({
  name: 'createAssociation',
  description:
    'Link two records (e.g. a contact to a deal) with HubSpot\'s default association type of the pair. Idempotent: linking records that are already linked succeeds ' +
    'and adds nothing. Both records must exist (NOT_FOUND otherwise). getAssociations lists the links.',
  input: z.strictObject({
    from_object_type: objectType('The type of the first record.'),
    from_object_id: recordId('The first record\'s id.'),
    to_object_type: objectType('The type of the record to link to.'),
    to_object_id: recordId('The id of the record to link to.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run(input, ctx): Promise<Associated> {
    checkPair(input.from_object_type, input.to_object_type, 'to_object_type');
    const out = await ctx.client.associateDefault(input.from_object_type, input.from_object_id, input.to_object_type, input.to_object_id);
    const typeId = out.results[0]?.associationSpec.associationTypeId;
    return {
      associated: true,
      from: `${input.from_object_type}/${input.from_object_id}`,
      to: `${input.to_object_type}/${input.to_object_id}`,
      ...(typeId !== undefined ? { typeId } : {}),
    };
  },
  text: (r) => `linked ${r.from} → ${r.to}${r.typeId !== undefined ? ` (default type ${r.typeId})` : ''}`,
  example: {
    input: { from_object_type: 'deals', from_object_id: '1361', to_object_type: 'contacts', to_object_id: '1061' },
    result: { associated: true, from: 'deals/1361', to: 'contacts/1061', typeId: 3 },
  },
});
