/**
 * What each host's model reads of the token cases (the platforms' token benches: crm, collab, dbapp,
 * filebox, realty), per host rule (test/bench/host-views.ts, docs/mcp-output.md), against the
 * vendor's raw JSON of the same call. Goal: at least 3× fewer tokens in every host rule. Runs alone
 * with `npx tsx test/bench/hosts.ts` (about half a minute).
 */
import { measureCollabTokens } from './collab';
import { measureCrmTokens } from './crm';
import { measureFileboxTokens } from './filebox';
import { hostRows } from './host-views';
import { measureRealtyTokens } from './realty';
import { measureTokens as measureRecordTokens } from './records';
import type { BenchRow } from './rows';

export async function benchRows(): Promise<BenchRow[]> {
  const crm = await measureCrmTokens();
  const records = await measureRecordTokens();
  const collab = await measureCollabTokens();
  const filebox = await measureFileboxTokens();
  const realty = await measureRealtyTokens();
  return [
    ...hostRows(`crm/searchDeals, ${crm.deals} deals`, 'HubSpot', crm.rawTokens, crm.hosts),
    ...hostRows(`dbapp/listRecords, ${records.records} Leads`, 'Tape', records.rawTokens, records.hosts),
    ...hostRows(`collab/filterItems, ${collab.items} Deals`, 'Podio', collab.rawTokens, collab.hosts),
    ...hostRows(`filebox/listChildren, ${filebox.items} items`, 'ShareFile', filebox.rawTokens, filebox.hosts),
    ...hostRows(`realty/searchProperties, ${realty.properties} properties`, 'BatchData', realty.rawTokens, realty.hosts),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const r of await benchRows()) console.log(`${r.figure}: ${r.value} ${r.unit} (goal ≥ ${r.goal}) — ${r.detail}`);
