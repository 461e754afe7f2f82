import { definePlatform } from '../../shared/core/tool';
import { BATCHDATA_BASE_URL, createBatchDataClient } from './client';
import { propertyTools } from './tools/properties';

/** The realty platform (BatchData Property API v1): the explicit list of its tools. */
export const realty = definePlatform({
  name: 'realty',
  vendor: 'BatchData',
  defaultBaseUrl: BATCHDATA_BASE_URL,
  rateLimit: { max: 3000, windowSeconds: 60 }, // BatchData: 3,000 requests per minute per token
  client: createBatchDataClient,
  outputSchemas: () => import('../../shared/catalog/output/realty.json').then((m) => m.default.tools),
  mainGroup: 'properties',
  auth: {
    kinds: ['api_key'],
    keyLabel: 'BatchData API token',
    keyWhere: 'BatchData shows your API tokens in its web app, in your account\'s API settings; use one allowed to search and look up properties.',
    checkKey: (client) => client.checkToken(),
  },
  toolsets: {
    properties: { description: 'Properties: look up an address, search by conditions, find comparables', writes: false },
  },
  search: {
    // BatchData's links, a parcel number (APN), a street address, skip tracing.
    cues: [/\bbatchdata\.(?:com|io)\b/i, /\bapn\b|\bparcel (?:number|id)\b/i, /\b\d+[a-z]?\s+(?:[nsew]\.?\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|pkwy|hwy|ter|cir)\b/i, /\bskip[- ]?trac/i],
    examples: () => import('./search-examples.json').then((m) => m.default),
  },
  tools: {
    ...propertyTools,
  },
});
