import * as z from 'zod';
import { ToolError } from '../../../../shared/core/errors';
import { checkPair } from '../../associations/pairs';
import { crmCategory } from '../../properties/names';
import { objectType, recordId } from '../../params';
import { crmTool } from '../../tool';
import type { HubSpotAssociation, HubSpotObjectType } from '../../wire';
import { KINDS } from '../../objects/kinds';
import { plural } from '../../../../shared/core/render';

/** docs/spec.md#crm-objects: toObjectId a number, the association types with category, typeId and label. */
export interface Association {
  toObjectId: number;
  associationTypes: { category: string; typeId: number; label: string | null }[];
}

interface Associations {
  from: string;
  toObjectType: HubSpotObjectType;
  results: Association[];
}

/** Pages followed, at 500 links each: 10,000 links of one record to one type is beyond any real CRM record. */
const MAX_PAGES = 20;

export const getAssociations = crmTool({
  name: 'getAssociations',
  description:
    'List the records of one object type linked to a record (e.g. the contacts of a deal), with every association type of each link: category, typeId and label ' +
    '(Primary, or null for the unlabeled default). Follows HubSpot\'s paging to the end. An unknown record answers NOT_FOUND. Read-only, idempotent.',
  input: z.strictObject({
    from_object_type: objectType('The type of the record whose links to list.'),
    object_id: recordId('The record\'s id.'),
    to_object_type: objectType('The type of the linked records to list.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<Associations> {
    checkPair(input.from_object_type, input.to_object_type, 'to_object_type');
    const all: HubSpotAssociation[] = [];
    let after: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await ctx.client.getAssociations(input.from_object_type, input.object_id, input.to_object_type, after);
      all.push(...page.results);
      after = page.paging?.next?.after;
      if (!after) break;
    }
    if (all.length === 0) {
      // HubSpot lists no links for an unknown record too: say which it is.
      await ctx.client.getRecord(input.from_object_type, input.object_id, []).catch((e: unknown) => {
        if (e instanceof ToolError && e.code === 'NOT_FOUND') throw new ToolError('NOT_FOUND', `No ${input.from_object_type} record #${input.object_id} (or it was deleted).`, { object_id: input.object_id });
        throw e;
      });
    }
    return {
      from: `${input.from_object_type}/${input.object_id}`,
      toObjectType: input.to_object_type,
      results: all.map((a) => ({
        toObjectId: Number(a.toObjectId),
        associationTypes: a.associationTypes.map((t) => ({ category: crmCategory(t.category), typeId: t.typeId, label: t.label ?? null })),
      })),
    };
  },
  text: (r: Associations) =>
    [
      ...r.results.map((a) => `${r.toObjectType} #${a.toObjectId} — ${a.associationTypes.map((t) => `${t.label ?? 'unlabeled'} (type ${t.typeId})`).join(', ')}`),
      r.results.length ? `${plural(r.results.length, KINDS[r.toObjectType].singular, r.toObjectType)} linked to ${r.from}` : `no ${r.toObjectType} linked to ${r.from}`,
    ].join('\n'),
  example: {
    input: { from_object_type: 'contacts', object_id: '1061', to_object_type: 'companies' },
    result: {
      from: 'contacts/1061',
      toObjectType: 'companies',
      results: [{ toObjectId: 1001, associationTypes: [{ category: 'CRM_DEFINED', typeId: 1, label: 'Primary' }, { category: 'CRM_DEFINED', typeId: 279, label: null }] }],
    },
  },
});
