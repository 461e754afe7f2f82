import type { PropInfo } from '../objects/catalog';

/** A property definition as the tools answer it (crm_ name; HubSpot's own name left out). */
export type PropertyOut = Omit<PropInfo, 'wire'>;

const OPTIONS_SHOWN = 8;

/** One definition on one line: name, label, type/fieldType, read-only, the first options. */
export function propertyLine(p: PropertyOut): string {
  const opts = p.options.length
    ? ` options ${p.options.slice(0, OPTIONS_SHOWN).map((o) => (o.label !== o.value ? `${o.value}=${o.label}` : o.value)).join(', ')}${p.options.length > OPTIONS_SHOWN ? ` +${p.options.length - OPTIONS_SHOWN} more` : ''}`
    : '';
  return `${p.name} "${p.label}" ${p.type}/${p.fieldType}${p.readOnly ? ' read-only' : ''}${opts}`;
}

