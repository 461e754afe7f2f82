import * as z from 'zod';
import { printedId } from '../../../../shared/core/ids';
import { ToolError } from '../../../../shared/core/errors';
import { cityInput, stateInput, streetInput, zipInput } from '../../params';
import { realtyTool } from '../../tool';
import { identify } from '../../properties/address';
import { propertyDetail } from '../../properties/detail';
import type { BdEnvelope } from '../../wire';
import { toolEnvelope, type ToolEnvelope } from '../../properties/envelope';
import { EXAMPLE_ENVELOPE } from '../../properties/example';

export const lookupProperty = realtyTool({
  name: 'lookupProperty',
  description:
    'Get the full record of one US property from BatchData: address with county, FIPS and coordinates, APN, building (beds, baths, living area, year built), lot, ' +
    'estimated value and equity, assessment and tax, last and prior sale, owner (names, owner-occupied or absentee, mailing address), mortgages, liens, foreclosure, ' +
    'listing, quick-list flags and deed history. Name the property exactly one way: the full address (street, city, state, zip — written-out directions and ' +
    'suffixes such as "West … Avenue" are abbreviated for you), or property_id (the "#…" id searchProperties and comparableProperty show), or apn with ' +
    'county_fips_code. Text shows a summary line per record group; format=json returns the BatchData envelope with the whole record. No match is NOT_FOUND naming ' +
    'the normalised address that was tried. Read-only; each record returned is billed by BatchData.',
  input: z.strictObject({
    street: streetInput(' — with city, state and zip').optional(),
    city: cityInput().optional(),
    state: stateInput().optional(),
    zip: zipInput().optional(),
    property_id: printedId(z.string().trim().min(1).max(64)).optional().describe('BatchData property id (its _id), e.g. "66a1f0c2e4b0a1b2c3d4e5f6" — instead of the address.'),
    apn: z.string().trim().min(1).max(40).optional().describe("The county's parcel number (APN), e.g. \"123-45-678\"; needs county_fips_code."),
    county_fips_code: z
      .string()
      .trim()
      .regex(/^\d{5}$/)
      .optional()
      .describe('Five-digit county FIPS code the APN belongs to, e.g. "04013" (Maricopa County, AZ).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<ToolEnvelope> {
    const { request, tried } = identify(input);
    const env = await client.lookupProperties({ requests: [request] });
    if (env.results.properties.length === 0) {
      throw new ToolError('NOT_FOUND', `BatchData has no property for ${tried}. Check the spelling and zip, or find it with searchProperties (query "<street>, <city>, <state>").`, {
        tried,
        ...('address' in request ? { address: request.address } : {}),
      });
    }
    // One request, one record: the envelope as BatchData sent it, cut to that record.
    return toolEnvelope(env, { changes: { properties: env.results.properties.slice(0, 1) } });
  },
  text: (env: ToolEnvelope) => propertyDetail(env.results.properties[0]!),
  example: {
    input: { street: '622 West Palmaire Avenue', city: 'Phoenix', state: 'AZ', zip: '85021' },
    result: toolEnvelope(EXAMPLE_ENVELOPE),
  },
});
