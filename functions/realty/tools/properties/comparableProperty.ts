import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { plural } from '../../../../shared/core/render';
import { cityInput, MAX_TAKE, stateInput, streetInput, zipInput } from '../../params';
import { propertyLine, usd } from '../../render';
import { realtyTool } from '../../tool';
import { formatAddress, normaliseAddress } from '../../properties/address';
import type { BatchDataClient } from '../../client';
import { COMP_CRITERIA, compCriteriaText, compMetrics, compOptions } from '../../properties/comparables';
import { toolEnvelope, type ToolEnvelope } from '../../properties/envelope';
import { EXAMPLE_ENVELOPE, EXAMPLE_META, EXAMPLE_PROPERTY } from '../../properties/example';
import type { BdEnvelope, BdLookupAddress } from '../../wire';

const C = COMP_CRITERIA;
const useSwitch = (what: string) => z.boolean().default(true).describe(`Only comparables ${what} (default true; false drops this criterion).`);

export const comparableProperty = realtyTool({
  name: 'comparableProperty',
  description:
    'Find comparable properties ("comps") for a subject address with BatchData, nearest first, and aggregate them: average sale price, average sale price per ' +
    'square foot and average estimated value of the comparables returned — a quick valuation check. Criteria, each switched by its use_* flag (all on by default): ' +
    `within ${C.distanceMiles} mile (use_distance), bedrooms ±${C.bedrooms} (use_bedrooms), year built ±${C.yearBuilt} years (use_year_built), living area ±${C.areaPercent} % ` +
    `(use_area), lot size ±${C.lotSizePercent} % (use_lot_size); turn some off when too few come back. The subject needs its full address (street, city, state, zip); ` +
    'an address BatchData does not know is NOT_FOUND. Text: one line per comparable with its distance and last sale, then the metrics; format=json returns the ' +
    `envelope with meta.results.aggComparablesMetrics. take: default 10, max ${MAX_TAKE}. Read-only; each comparable returned is billed.`,
  input: z.strictObject({
    street: streetInput(' — with city, state and zip').optional(),
    city: cityInput().optional(),
    state: stateInput().optional(),
    zip: zipInput().optional(),
    property_id: z.string().trim().min(1).max(64).optional().describe('BatchData property id of the subject (its _id, shown as "#…" by searchProperties and lookupProperty) — instead of the address.'),
    use_distance: useSwitch(`within ${C.distanceMiles} mile of the subject`),
    use_bedrooms: useSwitch(`with the subject's bedrooms ±${C.bedrooms}`),
    use_year_built: useSwitch(`built within ±${C.yearBuilt} years of the subject`),
    use_area: useSwitch(`with living area within ±${C.areaPercent} % of the subject's`),
    use_lot_size: useSwitch(`with lot size within ±${C.lotSizePercent} % of the subject's`),
    take: z.number().int().min(1).max(MAX_TAKE).default(10).describe(`Comparables to return, nearest first, 1-${MAX_TAKE} (default 10).`),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<ToolEnvelope> {
    const subject = await subjectOf(input, client);
    let env: BdEnvelope;
    try {
      env = await client.searchProperties({ searchCriteria: { compAddress: subject }, options: { ...compOptions(input), skip: 0, take: input.take } });
    } catch (err) {
      if (err instanceof ToolError && err.code === 'NOT_FOUND') {
        const tried = formatAddress(subject);
        throw new ToolError('NOT_FOUND', `BatchData has no property at ${tried} to compare with. Check the address with lookupProperty, or find it with searchProperties.`, {
          ...err.details,
          tried,
          address: subject,
        });
      }
      throw err;
    }
    // The metrics of the comparables returned, computed here so they always describe exactly this list.
    const meta = env.results.meta;
    return toolEnvelope(env, { search: true, changes: { meta: { ...meta, results: { ...meta.results, aggComparablesMetrics: compMetrics(env.results.properties) } } } });
  },
  text: (env: ToolEnvelope, input) => {
    const { properties, meta } = env.results;
    const subject = formatAddress((env.results.searchCriteria?.compAddress ?? {}) as BdLookupAddress);
    const criteria = compCriteriaText(input);
    if (properties.length === 0) return `no comparables of ${subject} (${criteria}) — turn a use_* criterion off to widen the search`;
    const lines = properties.map((p) => {
      const s = p.sale?.lastSale;
      const sold = s?.saleDate ? `sold ${s.saleDate}${s.price != null ? ` ${usd(s.price)}` : ''}` : 'no sale on record';
      return propertyLine(p, [...(p.distance !== undefined ? [`${p.distance} mi away`] : []), sold]);
    });
    const m = meta.results?.aggComparablesMetrics;
    const total = meta.results?.resultsFound ?? undefined;
    const metrics = m
      ? `metrics of ${properties.length === 1 ? 'this comparable' : `these ${properties.length} comparables`}: average sale price ${usd(m.averagePrice)}, average ${usd(m.averagePricePerSqft)}/sqft, average estimated value ${usd(m.estimatedValue)}`
      : '';
    const foot =
      total !== undefined && total > properties.length
        ? `showing the nearest ${properties.length} of ${plural(total, 'comparable')} — pass take ${Math.min(total, MAX_TAKE)} for ${total > MAX_TAKE ? `the nearest ${MAX_TAKE}` : 'all of them'}`
        : plural(properties.length, 'comparable');
    return [`comparables of ${subject} (${criteria}), nearest first:`, ...lines, ...(metrics ? [metrics] : []), foot].join('\n');
  },
  example: {
    input: { street: '622 W Palmaire Ave', city: 'Phoenix', state: 'AZ', zip: '85021', take: 1 },
    result: toolEnvelope({
      ...EXAMPLE_ENVELOPE,
      results: {
        properties: [{ ...EXAMPLE_PROPERTY, _id: '66a1f0c2e4b0a1b2c3d4e601', address: { ...EXAMPLE_PROPERTY.address, street: '640 W Palmaire Ave' }, distance: 0.03 }],
        meta: {
          ...EXAMPLE_META,
          results: { requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0, resultCount: 1, resultsFound: 14, aggComparablesMetrics: { averagePrice: 310000, averagePricePerSqft: 213.79, estimatedValue: 412000 } },
        },
      },
    }, { search: true }),
  },
});

type Subject = { street?: string; city?: string; state?: string; zip?: string; property_id?: string };
const PARTS = ['street', 'city', 'state', 'zip'] as const;

/** The subject's full address: as given, or looked up from its property_id (comparables take an address only). */
async function subjectOf(input: Subject, client: BatchDataClient): Promise<BdLookupAddress> {
  const given = PARTS.filter((k) => input[k] !== undefined);
  if (input.property_id !== undefined) {
    if (given.length) throw invalidParameter('property_id', 'either the address (street, city, state, zip) or property_id', `Name the subject one way only: property_id or the address, not both (got property_id and ${given.join(', ')}).`);
    const env = await client.lookupProperties({ requests: [{ propertyId: input.property_id }] });
    const a = env.results.properties[0]?.address;
    if (!a) throw new ToolError('NOT_FOUND', `BatchData has no property with id ${input.property_id}. Take the id from searchProperties or lookupProperty, or pass the address instead.`, { property_id: input.property_id });
    const missing = PARTS.filter((k) => !a[k]);
    if (missing.length) throw new ToolError('NOT_FOUND', `BatchData's record of property ${input.property_id} has no ${missing.join(', ')}: comparables need the full address. Pass the address instead.`, { property_id: input.property_id, missing });
    return normaliseAddress({ street: a.street!, city: a.city!, state: a.state!, zip: a.zip! });
  }
  const missing = PARTS.filter((k) => input[k] === undefined);
  if (missing.length === PARTS.length) throw invalidParameter('street', 'the address (street, city, state, zip) or property_id', 'Name the subject: its address (street, city, state, zip) or its property_id.');
  if (missing.length) {
    throw invalidParameter(missing[0]!, 'street, city, state and zip together, or property_id', `The subject's address is incomplete: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing. Comparables need the full address (or pass property_id).`, { missing });
  }
  return normaliseAddress(input as BdLookupAddress);
}
