/**
 * crm's token figure: searchDeals' default text for 100 deals against HubSpot's raw JSON of the
 * same search (same deals, same properties). Goal: at least 3× fewer tokens, with every
 * property value of the raw JSON that a reader needs shown in the text.
 */
import { encode } from 'gpt-tokenizer';
import { SANDBOX_KEYS } from '../../infra/twins/hubspot';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';
import { hostTokens } from './host-views';

/** Bookkeeping values the text leaves out on purpose (ids are shown as #id; the rest is HubSpot-maintained). */
const NOT_SHOWN = new Set(['hs_object_id', 'createdate', 'hs_lastmodifieddate']);

const PARAMS = { limit: 100 };

export async function measureCrmTokens() {
  const h = await harness({ env: { RATE_LIMIT_MAX: '100000000' } });
  const log = h.recordRequests('crm');
  const text = await h.call('crm/searchDeals', PARAMS);
  if (text.status !== 200) throw new Error(`searchDeals failed: ${text.text.slice(0, 300)}`);
  const sent = log.find((r) => r.path === '/crm/v3/objects/deals/search')!;
  const raw = await h.twin('crm').fetch('https://api.hubapi.com/crm/v3/objects/deals/search', {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify(sent.body),
  });
  const rawText = await raw.text();
  const rawJson = JSON.parse(rawText) as { results: { id: string; properties: Record<string, string | null> }[] };
  const shown = text.body.data as string;
  // Each raw value must be readable in the text: ids, names, amounts (formatted), stage/pipeline (by label), days.
  const missing = rawJson.results.flatMap((r) => {
    const line = shown.split('\n').find((l) => l.startsWith(`#${r.id} `)) ?? '';
    return Object.entries(r.properties)
      .filter(([k, v]) => v && !NOT_SHOWN.has(k) && k !== 'dealstage' && k !== 'pipeline')
      .filter(([k, v]) => !line.includes(k === 'amount' ? Number(v).toLocaleString('en-US', { minimumFractionDigits: 2 }) : k === 'closedate' ? v!.slice(0, 10) : v!))
      .map(([k]) => `${r.id}.${k}`);
  });
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  return { deals: rawJson.results.length, textTokens, rawTokens, ratio: rawTokens / textTokens, missing, hosts: await hostTokens(h, 'crm/searchDeals', PARAMS) };
}

export async function benchRows(): Promise<BenchRow[]> {
  const t = await measureCrmTokens();
  if (t.missing.length) throw new Error(`searchDeals text leaves out values of the raw JSON: ${t.missing.slice(0, 10).join(', ')}`);
  return [
    {
      figure: `searchDeals text, ${t.deals} deals: tokens vs HubSpot raw JSON`,
      value: Math.round(t.ratio * 100) / 100,
      unit: '×',
      goal: 3,
      better: 'higher',
      detail: `${t.textTokens.toLocaleString('en-US')} vs ${t.rawTokens.toLocaleString('en-US')} tokens`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchRows());
