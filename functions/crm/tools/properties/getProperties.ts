import * as z from 'zod';
import { objectType } from '../../params';
import { catalog } from '../../objects/catalog';
import { propertyLine, type PropertyOut } from '../../properties/render';
import { crmTool } from '../../tool';

interface Properties {
  objectType: string;
  count: number;
  properties: PropertyOut[];
}

export const getProperties = crmTool({
  name: 'getProperties',
  description:
    'List the property definitions of an object type (contacts, companies, deals, tickets): internal name (HubSpot\'s hs_/hubspot_ names written crm_), label, type, ' +
    'fieldType, group, options of enumerations (value and label) and whether HubSpot computes it (read-only). The names are what values, filters, sorts and ' +
    'return_properties take. Cached for an hour per key. Read-only.',
  input: z.strictObject({ object_type: objectType('The object type whose properties to list.') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, ctx): Promise<Properties> {
    const c = await catalog(ctx, input.object_type);
    const properties = c.props.map(({ wire: _wire, ...p }) => p).sort((a, b) => a.groupName.localeCompare(b.groupName) || a.name.localeCompare(b.name));
    return { objectType: input.object_type, count: properties.length, properties };
  },
  text: (r) => [...r.properties.map(propertyLine), `${r.count} ${r.objectType} properties`].join('\n'),
  example: {
    input: { object_type: 'deals' },
    result: {
      objectType: 'deals',
      count: 2,
      properties: [
        { name: 'dealname', label: 'Deal Name', type: 'string', fieldType: 'text', groupName: 'dealinformation', options: [], readOnly: false },
        { name: 'crm_priority', label: 'Priority', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation', options: [{ label: 'Low', value: 'low' }, { label: 'High', value: 'high' }], readOnly: false },
      ],
    },
  },
});
