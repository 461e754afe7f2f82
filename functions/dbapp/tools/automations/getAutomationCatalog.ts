import * as z from 'zod';
import { loadCatalog, type CatalogEntry } from '../../automations/catalog';
import { dbappTool } from '../../tool';

const line = (e: CatalogEntry) => `${e.type}${e.group === 'control_flow' ? ' (control flow)' : ''} — ${e.label}${e.description ? `: ${e.description}` : ''}${e.config_schema ? ` · config ${JSON.stringify(e.config_schema)}` : ''}`;

export const getAutomationCatalog = dbappTool({
  name: 'getAutomationCatalog',
  description:
    'The vocabulary automations are built from: trigger types and action types (with detail: true, each type\'s config_schema), or with field_type the ' +
    'filter operators that field type accepts (with each operator\'s value_arity). Use it before createAutomation / updateAutomation rather than guessing ' +
    'type names or config keys. Read-only; results are cached for one hour.',
  input: z.strictObject({
    section: z.enum(['all', 'triggers', 'actions']).default('all').describe('Which part of the catalog: all (default), triggers or actions.'),
    field_type: z
      .string()
      .min(1)
      .optional()
      .describe('A field type (single_text, number, single_category, status, single_date, …; see getApp): returns {field_type, filter_operators} for filter conditions on such a field instead of the sections.'),
    detail: z.boolean().default(false).describe('Add each type\'s config_schema (JSON Schema of its config; readOnly properties are server-assigned, do not send them).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  run: ({ section, field_type, detail }, ctx) => loadCatalog(ctx, { section, detail, ...(field_type !== undefined ? { field_type } : {}) }),
  text: (r) => {
    if ('filter_operators' in r) {
      return [`filter operators of ${r.field_type}:`, ...r.filter_operators.map((o) => `${o.operator} — ${o.label} (value: ${o.value_arity})`)].join('\n');
    }
    const out: string[] = [];
    if (r.triggers) out.push(`triggers (${r.triggers.length}):`, ...r.triggers.map(line));
    if (r.actions) out.push(`actions (${r.actions.length}):`, ...r.actions.map(line));
    out.push('operators per field type: pass field_type; config schemas: pass detail: true');
    return out.join('\n');
  },
  example: {
    input: { section: 'triggers' },
    result: { triggers: [{ type: 'record_created', label: 'Record created', description: 'Triggers when a record is created in the app.' }] },
  },
});
