import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { reservedName } from '../../properties/names';
import { objectType } from '../../params';
import { catalog, forgetCatalog } from '../../objects/catalog';
import { KINDS } from '../../objects/kinds';
import { crmTool } from '../../tool';
import { propertyLine, type PropertyOut } from '../../properties/render';

/** Which field types each data type may be shown with (HubSpot's property docs). */
const FIELD_TYPES: Record<string, readonly string[]> = {
  string: ['text', 'textarea'],
  number: ['number'],
  date: ['date'],
  datetime: ['date'],
  enumeration: ['select', 'radio', 'checkbox', 'booleancheckbox'],
  bool: ['booleancheckbox'],
};

interface Created {
  created: true;
  property: PropertyOut;
}

export const createProperty = crmTool({
  name: 'createProperty',
  description:
    'Create a custom property on an object type. name: lowercase letters, digits and underscores (not starting with hs_, hubspot_ or crm_, which stand for HubSpot\'s own); ' +
    'type and field_type must fit (string: text/textarea; number: number; date/datetime: date; enumeration: select/radio/checkbox/booleancheckbox; bool: booleancheckbox); ' +
    'enumerations need options. group_name defaults to the object\'s information group. Not idempotent: a second call with the same name is refused.',
  input: z.strictObject({
    object_type: objectType('The object type to add the property to.'),
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'lowercase letters, digits and underscores, starting with a letter').max(100).describe('Internal name: lowercase, underscores, no spaces (e.g. contract_tier).'),
    label: z.string().min(1).max(100).describe('The label shown in HubSpot.'),
    type: z.enum(['string', 'number', 'date', 'datetime', 'enumeration', 'bool']).describe('Data type.'),
    field_type: z.enum(['text', 'textarea', 'number', 'date', 'select', 'radio', 'checkbox', 'booleancheckbox']).describe('How HubSpot shows it; must fit the type.'),
    group_name: z.string().min(1).optional().describe('Property group (default contactinformation, companyinformation, dealinformation or ticketinformation).'),
    options: z
      .array(z.strictObject({ label: z.string().min(1).describe('Shown label.'), value: z.string().min(1).describe('Internal value (what values take).') }))
      .min(1)
      .optional()
      .describe('The options of an enumeration: [{label, value}], values unique.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx): Promise<Created> {
    if (reservedName(input.name)) {
      throw invalidParameter('name', 'a name not starting with hs_, hubspot_ or crm_', `name "${input.name}" starts with a prefix reserved for HubSpot's own properties (crm_ stands for hs_/hubspot_ here); choose another name.`);
    }
    if (!FIELD_TYPES[input.type]!.includes(input.field_type)) {
      throw invalidParameter('field_type', `one of ${FIELD_TYPES[input.type]!.join(', ')}`, `field_type "${input.field_type}" does not fit type "${input.type}"; use ${FIELD_TYPES[input.type]!.join(' or ')}.`);
    }
    if (input.type === 'enumeration' && !input.options) throw invalidParameter('options', 'options for an enumeration', 'options are required for an enumeration: [{label, value}].');
    if (input.type !== 'enumeration' && input.options) throw invalidParameter('options', `no options for type ${input.type}`, `options only apply to enumerations; leave them out for type "${input.type}".`);
    const values = (input.options ?? []).map((o) => o.value);
    if (new Set(values).size !== values.length) throw invalidParameter('options', 'unique option values', 'option values must be unique.');
    const c = await catalog(ctx, input.object_type);
    if (c.byName.has(input.name)) throw invalidParameter('name', 'a name not in use', `${input.object_type} already have a property "${input.name}"; getProperties lists them.`);
    const made = await ctx.client.createProperty(input.object_type, {
      name: input.name,
      label: input.label,
      type: input.type,
      fieldType: input.field_type,
      groupName: input.group_name ?? `${KINDS[input.object_type].singular}information`,
      ...(input.options ? { options: input.options.map((o, i) => ({ label: o.label, value: o.value, hidden: false, displayOrder: i })) } : {}),
    });
    await forgetCatalog(ctx, input.object_type);
    return {
      created: true,
      property: {
        name: made.name, label: made.label, type: made.type, fieldType: made.fieldType, groupName: made.groupName,
        options: (made.options ?? []).map((o) => ({ label: o.label, value: o.value })), readOnly: false,
      },
    };
  },
  text: (r) => `created property ${propertyLine(r.property)}`,
  example: {
    input: { object_type: 'deals', name: 'contract_tier', label: 'Contract tier', type: 'enumeration', field_type: 'select', options: [{ label: 'Gold', value: 'gold' }, { label: 'Silver', value: 'silver' }] },
    result: {
      created: true,
      property: { name: 'contract_tier', label: 'Contract tier', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation', options: [{ label: 'Gold', value: 'gold' }, { label: 'Silver', value: 'silver' }], readOnly: false },
    },
  },
});
