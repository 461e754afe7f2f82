import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import type { ObjectKind } from './kinds';

type Ctx = ToolContext<HubSpotClient>;

/** HubSpot's "Primary" contact → company association type (HUBSPOT_DEFINED 1). */
const PRIMARY_CONTACT_TO_COMPANY = 1;

export interface PlacedCompany {
  id: string;
  name: string;
  /** true: made for this contact; false: an existing company of that name. */
  created: boolean;
}

/** The id of a live company named exactly `name` (case-insensitive, as HubSpot's EQ on text is), if any. */
export async function findCompany(ctx: Ctx, name: string): Promise<string | undefined> {
  const page = await ctx.client.search('companies', {
    filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: name }] }],
    sorts: [],
    properties: ['name'],
    limit: 1,
  });
  return page.results[0]?.id;
}

/**
 * A contact's `company`, on create and on update alike: the existing company of that name, or a
 * new one, linked as the contact's primary company. On a new contact HubSpot (and the twin) may
 * already have matched or created the company and linked it as primary; when it has not (the
 * portal's auto-association is off), or on an update (HubSpot links nothing then), the platform
 * does it. `fresh`: the contact was just created, so any primary company it has came from `name`.
 */
export async function placeCompany(ctx: Ctx, contactId: string, name: string, existing: string | undefined, fresh: boolean): Promise<PlacedCompany> {
  const links = await ctx.client.getAssociations('contacts', contactId, 'companies');
  const primary = links.results.find((l) => l.associationTypes.some((t) => t.typeId === PRIMARY_CONTACT_TO_COMPANY));
  if (primary && (fresh || String(primary.toObjectId) === existing)) return { id: String(primary.toObjectId), name, created: String(primary.toObjectId) !== existing };
  const id = existing ?? (await ctx.client.createRecord('companies', { name })).id;
  await ctx.client.associate('contacts', contactId, 'companies', id, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: PRIMARY_CONTACT_TO_COMPANY }]);
  return { id, name, created: existing === undefined };
}

/**
 * Writes a record (`write`: its create or update) and, for a contact whose values set `company`,
 * places that company as its primary one (the company looked up before the write, so a company
 * HubSpot makes for the new contact is told apart from one that existed).
 */
export async function linkCompany<R extends { id: string }>(
  ctx: Ctx,
  kind: ObjectKind,
  properties: Record<string, string>,
  write: () => Promise<R>,
  fresh: boolean,
): Promise<{ id: string; record: R; company?: PlacedCompany }> {
  const name = kind.type === 'contacts' ? properties.company?.trim() : undefined;
  const existing = name ? await findCompany(ctx, name) : undefined;
  const record = await write();
  return { id: record.id, record, ...(name ? { company: await placeCompany(ctx, record.id, name, existing, fresh) } : {}) };
}
