/**
 * The spec writes HubSpot's vendor prefixes as `crm_` (docs/vendors/hubspot.md):
 * `hs_lastmodifieddate` ↔ `crm_lastmodifieddate`, `hubspot_owner_id` ↔ `crm_owner_id`. The tools
 * speak `crm_` names everywhere; the client speaks HubSpot's. The way back is not mechanical
 * (`crm_owner_id` is `hubspot_owner_id`, not `hs_owner_id`), so it is built from the object's
 * property list.
 */

const VENDOR_PREFIX = /^(hs_|hubspot_)/;

/** The name a tool shows for HubSpot's property `wire`. */
export function crmName(wire: string): string {
  return wire.replace(VENDOR_PREFIX, 'crm_');
}

/** Names no custom property may take: HubSpot's reserved prefixes, and `crm_`, which stands for them here. */
export function reservedName(name: string): boolean {
  return VENDOR_PREFIX.test(name) || name.startsWith('crm_');
}

export interface NameMap {
  /** HubSpot's name → the tools' name. */
  toCrm(wire: string): string;
  /** The tools' name → HubSpot's, or undefined when the object has no such property. */
  toWire(crm: string): string | undefined;
  /** Every tools' name of the object. */
  names(): string[];
}

/**
 * The mapping of one object type, from its property names as HubSpot lists them. Should two
 * HubSpot names meet on one `crm_` name (`hs_x` and `hubspot_x`), the `hs_` one keeps it: HubSpot's
 * default objects have no such pair, and createProperty refuses the prefixes that could make one.
 */
export function nameMap(wireNames: Iterable<string>): NameMap {
  const back = new Map<string, string>();
  const sorted = [...wireNames].sort((a, b) => Number(b.startsWith('hs_')) - Number(a.startsWith('hs_')));
  for (const w of sorted) {
    const c = crmName(w);
    if (!back.has(c)) back.set(c, w);
  }
  return {
    toCrm: crmName,
    toWire: (c) => back.get(c),
    names: () => [...back.keys()].sort(),
  };
}

/** A properties map with every name shown the tools' way. */
export function crmProperties<V>(props: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [crmName(k), v]));
}

/** HubSpot's association category `HUBSPOT_DEFINED` is `CRM_DEFINED` in the spec (docs/spec.md#crm-objects), like the property prefixes. */
export function crmCategory(category: string): string {
  return category === 'HUBSPOT_DEFINED' ? 'CRM_DEFINED' : category;
}
