import { encode } from 'gpt-tokenizer';
import { PODIO_DEMO, SANDBOX_KEYS, type PodioTwin } from '../../infra/twins/podio';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';
import { hostTokens, type HostTokens } from './host-views';

/**
 * Tokens (gpt-tokenizer) of collab/filterItems' default text for 100 demo Deals against Podio's raw
 * JSON of the same filter call (`POST /item/app/{app_id}/filter/` with the body the tool sends).
 * Goal: at least 3× fewer tokens, and every non-empty value of the raw items present in the text.
 *
 * "Every value" means what a reader needs of each field, by Podio's output shapes (docs/vendors/podio.md#field-types):
 * texts (HTML tags stripped), numbers (Podio's "12.5000" read as a number), money amount with its
 * currency, progress, dates (start_date/end_date), category texts, relation titles, contact names,
 * phone/email values, location text, embed URLs, image file names — plus each item's title and tags.
 * Podio's metadata (ids, rights, revisions, colours, app config, UTC copies, links) is left out.
 */

const D = PODIO_DEMO;
const ITEMS = 100;
const GOAL = 3;

type Json = Record<string, any>;

/** The forms in which a raw number may show: as the number, or with two decimals. */
function numberForms(raw: unknown): string[] {
  const n = Number(raw);
  if (raw === null || raw === undefined || raw === '' || !Number.isFinite(n)) return [String(raw)];
  return [...new Set([String(n), n.toFixed(2)])];
}

/** HTML → its words: block ends break words, inline tags (<b>) do not. */
const stripHtml = (s: string) =>
  s.replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, ' ').replace(/<[^>]+>/g, '').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();

/** What must show of one raw field: a list of alternatives per value (any one present is enough). */
function fieldValues(f: Json): string[][] {
  const out: string[][] = [];
  for (const v of (f.values ?? []) as Json[]) {
    switch (f.type) {
      case 'text':
        if (typeof v.value === 'string' && stripHtml(v.value)) out.push([stripHtml(v.value)]);
        break;
      case 'number':
      case 'calculation':
      case 'progress':
      case 'duration':
        if (v.value !== null && v.value !== undefined && v.value !== '') out.push(f.type === 'duration' ? [String(v.value), `${Math.floor(Number(v.value) / 3600)}h`] : numberForms(v.value));
        break;
      case 'money':
        out.push(numberForms(v.value).map((a) => `${a} ${v.currency}`));
        break;
      case 'date':
        for (const k of ['start_date', 'end_date']) if (typeof v[k] === 'string' && v[k]) out.push([v[k]]);
        break;
      case 'category':
        out.push([String(v.value?.text ?? '')]);
        break;
      case 'app':
        out.push([String(v.value?.title ?? '')]);
        break;
      case 'contact':
        out.push([String(v.value?.name ?? '')]);
        break;
      case 'tel':
      case 'email':
      case 'location':
        if (typeof v.value === 'string' && v.value) out.push([v.value]);
        break;
      case 'embed':
        out.push([String(v.embed?.original_url ?? v.embed?.url ?? '')]);
        break;
      case 'image':
        out.push([String(v.value?.name ?? '')]);
        break;
      default:
        out.push([JSON.stringify(v)]);
    }
  }
  return out.filter((alts) => alts.some((a) => a.trim() !== ''));
}

export interface CollabTokenReport {
  items: number;
  textTokens: number;
  rawTokens: number;
  ratio: number;
  /** Values of the raw items (as `item_id label: value`) that the text does not show. */
  missing: string[];
  /** What each host rule's model reads of the same call through MCP. */
  hosts: HostTokens;
}

/** filterItems' text for 100 Deals vs Podio's raw JSON of the same call; the values the text misses. */
export async function measureCollabTokens(): Promise<CollabTokenReport> {
  const h = await harness({ env: { RATE_LIMIT_MAX: '100000000' } });
  const sent = h.recordRequests('collab');
  const params = { app_id: D.apps.deals, limit: ITEMS };
  const text = await h.call('collab/filterItems', params);
  if (text.status !== 200) throw new Error(`filterItems failed: ${text.text.slice(0, 300)}`);
  const call = sent.find((s) => s.path.endsWith('/filter/'));
  if (!call) throw new Error('filterItems sent no filter call');
  // The very call the tool made, as Podio answers it.
  const raw = await h.twin<PodioTwin>('collab').fetch(`https://api.podio.com${call.path}`, {
    method: 'POST',
    headers: { authorization: `OAuth2 ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
  });
  const rawText = await raw.text();
  const items = (JSON.parse(rawText) as { items: Json[] }).items;
  const shown = text.body.data as string;
  const lines = new Map<number, string>();
  for (const line of shown.split('\n')) {
    const m = /^#(\d+) /.exec(line);
    if (m) lines.set(Number(m[1]), line);
  }
  const missing: string[] = [];
  for (const item of items) {
    // Each value must be on its item's own line.
    const line = lines.get(item.item_id) ?? '';
    const need: [string, string[]][] = [['title', [item.title]], ...(item.tags as string[]).map((t): [string, string[]] => ['tag', [t]])];
    for (const f of item.fields as Json[]) for (const alts of fieldValues(f)) need.push([f.label, alts]);
    for (const [label, alts] of need) if (!alts.some((a) => line.includes(a))) missing.push(`#${item.item_id} ${label}: ${alts[0]}`);
  }
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  return { items: items.length, textTokens, rawTokens, ratio: rawTokens / textTokens, missing, hosts: await hostTokens(h, 'collab/filterItems', params) };
}

export async function benchRows(): Promise<BenchRow[]> {
  const t = await measureCollabTokens();
  return [
    {
      figure: `collab/filterItems text, ${t.items} Deals: tokens vs Podio raw JSON`,
      value: t.ratio,
      unit: '×',
      goal: GOAL,
      better: 'higher',
      detail: `${t.textTokens.toLocaleString('en-US')} vs ${t.rawTokens.toLocaleString('en-US')} tokens`,
    },
    {
      figure: `collab/filterItems text, ${t.items} Deals: raw values missing from the text`,
      value: t.missing.length,
      unit: 'values',
      goal: 0,
      better: 'lower',
      detail: t.missing.length ? t.missing.slice(0, 5).join(' | ') : 'every non-empty value shown',
    },
  ];
}
