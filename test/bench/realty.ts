import { encode } from 'gpt-tokenizer';
import { QUICK_LIST_NAMES, QUICK_LISTS } from '../../functions/realty/params';
import { SANDBOX_KEYS } from '../../infra/twins/batchdata';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';
import { hostTokens, type HostTokens } from './host-views';

const UNLIMITED = { env: { RATE_LIMIT_MAX: '100000000' } };
const SEARCH = { query: 'Phoenix, AZ', take: 50 };

export interface RealtyTokenReport {
  properties: number;
  textTokens: number;
  rawTokens: number;
  ratio: number;
  /** "<id> <field>" for each filterable value of the raw JSON that the property's line does not show. */
  missing: string[];
  /** What each host rule's model reads of the same call through MCP. */
  hosts: HostTokens;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * What a user filters on (searchProperties' parameters), as the line must show it: location
 * (street, city, state, zip, county), type, bedrooms, bathrooms, living area, year built,
 * estimated and assessed value, and the quick lists the property is on.
 */
function filterValues(p: any): [string, string][] {
  const out: [string, string][] = [
    ['street', p.address.street], ['city', p.address.city], ['state', p.address.state], ['zip', p.address.zip], ['county', p.address.county],
    ['type', p.general.propertyTypeDetail], ['estimatedValue', `$${fmt(p.valuation.estimatedValue)}`], ['assessedValue', `$${fmt(p.assessment.totalAssessedValue)}`],
  ];
  const b = p.building;
  if (b) {
    if (b.bedroomCount !== undefined) out.push(['bedrooms', `${b.bedroomCount} bd`]);
    out.push(['bathrooms', `${b.bathroomCount} ba`], ['area', `${fmt(b.livingAreaSquareFeet)} sqft`], ['yearBuilt', `built ${b.yearBuilt}`]);
  }
  for (const q of QUICK_LIST_NAMES) if (p.quickLists[QUICK_LISTS[q].flag]) out.push([`quickList ${q}`, q]);
  return out;
}

/** Tokens of searchProperties' text for 50 properties against BatchData's raw JSON of the same search. */
export async function measureRealtyTokens(): Promise<RealtyTokenReport> {
  const h = await harness(UNLIMITED);
  const text = await h.call('realty/searchProperties', SEARCH);
  if (text.status !== 200) throw new Error(`searchProperties failed: ${text.text.slice(0, 300)}`);
  const raw = await h.twin('realty').fetch('https://api.batchdata.com/api/v1/property/search', {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify({ searchCriteria: { query: SEARCH.query }, options: { skip: 0, take: SEARCH.take } }),
  });
  const rawText = await raw.text();
  const records = (JSON.parse(rawText) as { results: { properties: any[] } }).results.properties;
  const shown = text.body.data as string;
  const lines = new Map(shown.split('\n').filter((l) => l.startsWith('#')).map((l) => [l.slice(1, l.indexOf(' ')), l]));
  const missing: string[] = [];
  for (const p of records) {
    const line = lines.get(p._id) ?? '';
    for (const [field, value] of filterValues(p)) if (!line.includes(value)) missing.push(`${p._id} ${field}`);
  }
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  return { properties: records.length, textTokens, rawTokens, ratio: rawTokens / textTokens, missing, hosts: await hostTokens(h, 'realty/searchProperties', SEARCH) };
}

export async function benchRows(): Promise<BenchRow[]> {
  const t = await measureRealtyTokens();
  if (t.missing.length) throw new Error(`searchProperties text lacks filterable values: ${t.missing.slice(0, 10).join(', ')}${t.missing.length > 10 ? ` (+${t.missing.length - 10})` : ''}`);
  return [
    {
      figure: `searchProperties text, ${t.properties} properties: tokens vs BatchData raw JSON (every filterable field shown)`,
      value: Math.round(t.ratio * 10) / 10,
      unit: '×',
      goal: 10,
      better: 'higher',
      detail: `${fmt(t.textTokens)} vs ${fmt(t.rawTokens)} tokens`,
    },
  ];
}
