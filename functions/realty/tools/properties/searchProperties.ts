import * as z from 'zod';
import { ToolError } from '../../../../shared/core/errors';
import { listFooter } from '../../../../shared/core/render';
import { MAX_TAKE, quickListInput } from '../../params';
import { propertyLine, quickListCountsText } from '../../render';
import { realtyTool } from '../../tool';
import { addressFilter, buildingFilter, searchCriteria, valuationFilter } from '../../properties/criteria';
import { toolEnvelope, type ToolEnvelope } from '../../properties/envelope';
import { EXAMPLE_ENVELOPE, EXAMPLE_META, EXAMPLE_PROPERTY } from '../../properties/example';
import type { BdEnvelope } from '../../wire';

export const searchProperties = realtyTool({
  name: 'searchProperties',
  description:
    'Search US properties in BatchData by location and filters, all AND-ed: query (free-text location such as "Phoenix, AZ", a zip, "Maricopa County, AZ"), ' +
    'quick_list (one investor list such as preforeclosure, absentee_owner, high_equity), address (city, state, zip, county, street), building (bedrooms, bathrooms, ' +
    'living area, year built ranges; propertyType) and valuation (estimated and assessed value ranges); every min must be <= its max. Pages with skip and take ' +
    `(default 10, max ${MAX_TAKE}). Text: one line per property — id, address (county), type, beds/baths, sqft, year built, estimated and assessed value, the ` +
    'quick lists it is on — then how many of all matches are on each quick list, then the total and the next skip. Use the "#id" with lookupProperty ' +
    '(property_id) for the full record. format=json returns the BatchData envelope (full records, meta with resultsFound and requestId, quicklistCounts). ' +
    'Read-only; BatchData bills each record returned (the counts cost nothing).',
  input: z.strictObject({
    query: z.string().trim().min(1).max(200).optional().describe('Free-text location: "Phoenix, AZ", "85021", "Maricopa County, AZ", "Palmaire Ave, Phoenix".'),
    quick_list: quickListInput(),
    address: addressFilter,
    building: buildingFilter,
    valuation: valuationFilter,
    skip: z.number().int().min(0).default(0).describe('Properties to skip before the page starts (default 0): the footer gives the next value.'),
    take: z.number().int().min(1).max(MAX_TAKE).default(10).describe(`Properties per page, 1-${MAX_TAKE} (default 10).`),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<ToolEnvelope> {
    const criteria = searchCriteria(input);
    // The page, and beside it the quick-list counts of all matches: BatchData counts only when skip and take are 0 (an unbilled call).
    // The counts only add to the page: if their call fails, the page is answered with a warning saying why.
    const [page, counts] = await Promise.all([
      client.searchProperties({ searchCriteria: criteria, options: { skip: input.skip, take: input.take } }),
      client.searchProperties({ searchCriteria: criteria, options: { skip: 0, take: 0, quicklistCounts: true } }).catch((err: unknown) => (err instanceof ToolError ? err : Promise.reject(err))),
    ]);
    if (counts instanceof ToolError) {
      return toolEnvelope(page, { search: true, changes: { warnings: [...(page.results.warnings ?? []), `quick-list counts unavailable: ${counts.message}`] } });
    }
    return toolEnvelope(page, { search: true, changes: counts.results.quicklistCounts ? { quicklistCounts: counts.results.quicklistCounts } : {} });
  },
  text: (env: ToolEnvelope, input) => {
    const { properties, meta } = env.results;
    const total = meta.results?.resultsFound ?? undefined;
    const more = total !== undefined ? input.skip + properties.length < total : properties.length === input.take;
    const counts = total ? quickListCountsText(env.results.quicklistCounts ?? undefined, total) : '';
    const foot = listFooter({
      shown: properties.length,
      total,
      noun: 'property',
      nouns: 'properties',
      nounAfterTotal: true,
      next: more && properties.length ? { param: 'skip', value: input.skip + properties.length, also: 'with the same filters' } : undefined,
      empty: input.skip && total ? `no properties past skip ${input.skip} (${total} in all)` : 'no properties match — loosen a filter or check the location',
    });
    return [...properties.map((p) => propertyLine(p)), ...(counts ? [counts] : []), ...(env.results.warnings ?? []), foot].join('\n');
  },
  // Structured location and value filters instead of a free-text place.
  moreInputs: [{ address: { city: 'Phoenix', state: 'AZ', street: 'Palmaire Ave' }, valuation: { minEstimatedValue: 300000, maxEstimatedValue: 600000 }, take: 5 }],
  example: {
    input: { query: 'Phoenix, AZ', building: { minBedrooms: 3, maxBedrooms: 4 }, quick_list: 'absentee_owner', take: 1 },
    result: toolEnvelope({
      ...EXAMPLE_ENVELOPE,
      results: {
        properties: [EXAMPLE_PROPERTY],
        quicklistCounts: [{ name: 'absentee-owner', count: 412 }, { name: 'high-equity', count: 233 }, { name: 'preforeclosure', count: 9 }],
        meta: { ...EXAMPLE_META, results: { requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0, resultCount: 1, resultsFound: 412 } },
      },
    }, { search: true }),
  },
});
