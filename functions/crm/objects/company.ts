import type { ToolContext } from '../../../shared/tool';
import type { HubSpotClient } from '../client';

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
 * A new contact's `company`: HubSpot (and the twin) may already have matched or created the
 * company and linked it as primary; when it has not (the portal's auto-association is off), the
 * platform does it: the existing company of that name, or a new one, linked as primary.
 */
export async function placeCompany(ctx: Ctx, contactId: string, name: string, existing: string | undefined): Promise<PlacedCompany> {
  const links = await ctx.client.getAssociations('contacts', contactId, 'companies');
  const primary = links.results.find((l) => l.associationTypes.some((t) => t.typeId === PRIMARY_CONTACT_TO_COMPANY));
  if (primary) return { id: String(primary.toObjectId), name, created: String(primary.toObjectId) !== existing };
  const id = existing ?? (await ctx.client.createRecord('companies', { name })).id;
  await ctx.client.associate('contacts', contactId, 'companies', id, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: PRIMARY_CONTACT_TO_COMPANY }]);
  return { id, name, created: existing === undefined };
}
