import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer';
import { CHUNK_PARALLELISM } from '../../functions/dbapp/records/batch-write';
import { DEMO_DEALS_APP_ID, DEMO_LEADS_APP_ID } from '../../infra/twins/tape/demo';
import { CHUNK_SIZE } from '../../shared/core/batch';
import { eachBounded } from '../../shared/core/pool';
import type { Store } from '../../shared/store';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { dbappLambda } from './lambda';
import { median } from './stats';
import { hostTokens, type HostTokens } from './host-views';

const UNLIMITED = { env: { RATE_LIMIT_MAX: '100000000' } };

export interface TokenReport {
  records: number;
  textTokens: number;
  rawTokens: number;
  thinTokens: number;
  /** raw JSON tokens ÷ text tokens. */
  ratio: number;
  /** thin JSON tokens ÷ text tokens. */
  thinRatio: number;
  /** Pieces of displayed values (the thin JSON's) that the text does not show. */
  missing: string[];
  /** Those, counted by field type. */
  drops: string[];
  /** What each host rule's model reads of the same call through MCP. */
  hosts: HostTokens;
}

type TapeValue = Record<string, unknown>;
type TapeField = { field_id: number; label: string; field_type: string; values: TapeValue[] };
/** A number field's unit, as Tape's app shows its values: `45,200.00 €`. */
type Unit = { unit: string; prefix: boolean; decimals: number };
type TapeRecord = { record_id: number; title: string; fields: TapeField[] };

const plain = (html: string) => html.replace(/<[^>]+>/g, '').trim();

/**
 * What Tape's web app shows of one value, as the pieces a reader needs: the text, option, user name,
 * related title, date (and time, when the field has one), link, address, checklist item with its
 * state, due date and assignee.
 */
function shownParts(field: TapeField, v: TapeValue): string[] {
  const inner = v.value;
  if (field.field_type.endsWith('date')) {
    return [v.start_date, v.start_time, v.end_date, v.end_time].filter((x): x is string => typeof x === 'string' && x !== '');
  }
  if (field.field_type === 'multi_link') return [String(v.url)];
  if (field.field_type === 'checklist') {
    const assignee = v.assignee as { name?: string } | null | undefined;
    return [`${v.completed ? '[x]' : '[ ]'} ${String(v.title)}`, ...(v.due_at ? [String(v.due_at)] : []), ...(assignee?.name ? [assignee.name] : [])];
  }
  if (inner && typeof inner === 'object') {
    const o = inner as Record<string, unknown>;
    return [String(o.text ?? o.name ?? o.title ?? JSON.stringify(o))];
  }
  // A number is looked for as a reader sees it, grouped (45,200), whatever unit and decimals follow.
  return [typeof inner === 'number' ? inner.toLocaleString('en-US') : plain(String(inner))];
}

/** One value of the thin JSON: its pieces in one string (a number stays a number, or shows its unit as Tape does). */
function displayed(field: TapeField, v: TapeValue, units: ReadonlyMap<number, Unit>): string | number {
  if (typeof v.value === 'number') {
    const u = units.get(field.field_id);
    if (!u) return v.value;
    const n = v.value.toLocaleString('en-US', { minimumFractionDigits: u.decimals, maximumFractionDigits: u.decimals });
    return u.prefix ? `${u.unit}${n}` : `${n} ${u.unit}`;
  }
  const parts = shownParts(field, v);
  if (field.field_type.endsWith('date')) return `${parts.slice(0, 2).join(' ')}${v.end_date ? ` – ${parts.slice(2).join(' ')}` : ''}`;
  if (field.field_type === 'checklist') return `${parts[0]}${parts.length > 1 ? ` (${parts.slice(1).join(', ')})` : ''}`;
  return parts[0]!;
}

/**
 * The fair baseline: what a careful integration would hand a model instead of Tape's raw JSON — per
 * record its id, title and each field's label → displayed value(s), nothing else.
 */
export function thinJson(records: readonly TapeRecord[], units: ReadonlyMap<number, Unit> = new Map()): Record<string, unknown>[] {
  return records.map((r) => {
    const out: Record<string, unknown> = { record_id: r.record_id, title: r.title };
    for (const f of r.fields) {
      const values = f.values.map((v) => displayed(f, v, units));
      if (values.length) out[f.label] = values.length === 1 ? values[0] : values;
    }
    return out;
  });
}

/** The units of an app's number fields, from Tape's app schema (docs/vendors/tape.md#fields-and-values settings). */
async function numberUnits(tapeFetch: typeof fetch, appId: number): Promise<Map<number, Unit>> {
  const res = await tapeFetch(`https://api.tapeapp.com/v1/app/${appId}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
  const app = (await res.json()) as { fields: { field_id: number; field_type: string; config?: { settings?: Record<string, unknown> } }[] };
  const out = new Map<number, Unit>();
  for (const f of app.fields) {
    const s = f.config?.settings ?? {};
    if (f.field_type === 'number' && typeof s.unit === 'string' && s.unit) out.set(f.field_id, { unit: s.unit, prefix: s.unit_location === 'prefix', decimals: typeof s.decimals === 'number' ? s.decimals : 0 });
  }
  return out;
}

/**
 * Tokens (gpt-tokenizer) of listRecords' default text for 100 Leads against Tape's raw JSON of the
 * same records and against the thin JSON of them; which displayed values the text does not show.
 */
export async function measureTokens(): Promise<TokenReport> {
  const h = await harness(UNLIMITED);
  const params = { app_id: DEMO_LEADS_APP_ID, limit: 100 };
  const text = await h.call('dbapp/listRecords', params);
  if (text.status !== 200) throw new Error(`listRecords failed: ${text.text.slice(0, 300)}`);
  const raw = await h.tape.fetch(`https://api.tapeapp.com/v1/record/app/${DEMO_LEADS_APP_ID}?limit=100`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
  const rawText = await raw.text();
  const records = (JSON.parse(rawText) as { records: TapeRecord[] }).records;
  const thin = thinJson(records, await numberUnits(h.tape.fetch, DEMO_LEADS_APP_ID));
  const shown = text.body.data as string;
  // Every piece of every displayed value, looked for in the text; what is not there is what the text drops.
  const missing = new Set<string>();
  const dropped = new Map<string, number>();
  for (const r of records) {
    for (const f of r.fields) {
      for (const v of f.values) {
        for (const part of shownParts(f, v)) {
          if (shown.includes(part)) continue;
          missing.add(`${f.label}: ${part}`);
          dropped.set(f.field_type, (dropped.get(f.field_type) ?? 0) + 1);
        }
      }
    }
  }
  const drops = [...dropped].map(([type, n]) => `${type}: ${n} piece${n === 1 ? '' : 's'}`);
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  const thinTokens = encode(JSON.stringify(thin)).length;
  return { records: records.length, textTokens, rawTokens, thinTokens, ratio: rawTokens / textTokens, thinRatio: thinTokens / textTokens, missing: [...missing], drops, hosts: await hostTokens(h, 'dbapp/listRecords', params) };
}

const LEAD_NOTES = ['<p>Met at the Berlin trade fair.</p>', '<p>Asked for a demo of the reporting module.</p>', '<p>Budget in Q3, decision by the CFO.</p>'];
const PLACES = [
  { street: 'Keizersgracht 123', postal: '1015 CJ', city: 'Amsterdam', country: 'Netherlands' },
  { street: 'Marienplatz 8', postal: '80331', city: 'München', country: 'Germany' },
  { street: '10 St James Square', postal: 'SW1Y 4LE', city: 'London', country: 'United Kingdom' },
];

/** A Lead as an agent would create it: every field of the demo Leads app (14 fields, 12 field types), in the tool's input forms. */
export function lead(i: number): Record<string, unknown> {
  const place = PLACES[i % PLACES.length]!;
  return {
    name: `Bench Lead ${i}`,
    company: `Company ${i % 97}`,
    email: [{ type: 'work', email: `lead${i}@company${i % 97}.example` }],
    phone: [{ type: i % 2 ? 'work' : 'mobile', phone: `+49 89 ${100 + (i % 900)} ${1000 + (i % 9000)}` }],
    website: [{ url: `https://www.company${i % 97}.example`, title: `Company ${i % 97}` }],
    address: `${place.street}, ${place.postal} ${place.city}, ${place.country}`,
    source: ['Website', 'Referral', 'Event', 'Outbound'][i % 4],
    tags: i % 3 ? ['Hot'] : ['Enterprise', 'Needs demo'],
    status: ['New'],
    owner: [10000 + (i % 2)],
    first_contact: `2025-0${1 + (i % 9)}-1${i % 10} 00:00:00`,
    estimated_value: 1000 + (i % 500) * 25,
    notes: LEAD_NOTES[i % LEAD_NOTES.length],
    follow_ups: [{ title: 'Book discovery call', due: `2025-0${1 + (i % 9)}-2${i % 8}`, assignee: 10000 }],
  };
}

/** A Deal: every field of the demo Deals app (11 fields), among them the relation and the date range the Leads app lacks. */
function deal(i: number, leadIds: readonly number[]): Record<string, unknown> {
  return {
    deal_name: `Bench deal ${i}`,
    lead: [leadIds[i % leadIds.length]!],
    amount: { value: `${1000 + (i % 400) * 250}.00`, currency: 'USD' },
    stage: [['Discovery', 'Proposal', 'Negotiation'][i % 3]!],
    priority: [1 + (i % 3)],
    products: ['Core platform', 'Automations'],
    close_date: `2025-0${1 + (i % 9)}-28 00:00:00`,
    contract_period: { start: '2025-07-01 00:00:00', end: '2026-06-30 00:00:00' },
    account_manager: [10001],
    next_steps: [{ title: 'Send proposal', due: '2025-06-01', assignee: 10000 }, { title: 'Legal review', completed: i % 2 === 0 }],
    notes: '<p>Decision maker: CFO. Wants a 12-month term.</p>',
  };
}

export interface BatchReport {
  app: 'Leads' | 'Deals';
  records: number;
  fields: number;
  chunks: number;
  parallelism: number;
  latencyMs: number;
  /** ⌈chunks ÷ parallelism⌉ × latency: the vendor round trips alone. */
  floorMs: number;
  /**
   * The same batch calls the tool sent, replayed straight to the vendor with the same parallelism
   * (median): the vendor's own time, its processing included (the twin is one Node process).
   */
  directMs: number;
  elapsedMs: number[];
  medianMs: number;
  ratio: number;
  successful: number;
  /** The service's CPU time (this process: the twin is another) per record, over the measured runs. */
  cpuMsPerRecord: number;
}

/**
 * batchCreateRecords of `count` realistic records through the Lambda handler, Tape (a twin in
 * another process) answering each call after its latency; median of `runs` after one warm-up call.
 */
export async function measureBatch(tapeUrl: string, store: Store, latencyMs: number, count: number, app: 'Leads' | 'Deals', runs: number, leadIds: readonly number[]): Promise<BatchReport> {
  // The batch calls of the first measured run, kept to replay them directly.
  let recording = false;
  const sent: { url: string; init: RequestInit }[] = [];
  const vendorFetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (recording && init && String(input).includes('/v1/record/app/batch/')) sent.push({ url: String(input), init: { method: init.method, headers: init.headers, body: init.body } });
    return fetch(input, init);
  }) as typeof fetch;
  const call = dbappLambda(tapeUrl, store, vendorFetch);
  const appId = app === 'Leads' ? DEMO_LEADS_APP_ID : DEMO_DEALS_APP_ID;
  const inputs = Array.from({ length: count }, (_, i) => ({ fields: app === 'Leads' ? lead(i) : deal(i, leadIds) }));
  // Warm-up: the container's first call (JIT, the connection to Tape) is the cold figure's business.
  await call('batchCreateRecords', { app_id: appId, inputs: inputs.slice(0, 2) }, 'format=json');
  const elapsedMs: number[] = [];
  let successful = count;
  const cpu = process.cpuUsage();
  for (let r = 0; r < runs; r++) {
    recording = r === 0;
    const started = performance.now();
    const data = (await call('batchCreateRecords', { app_id: appId, inputs }, 'format=json')) as { successful: number };
    elapsedMs.push(performance.now() - started);
    successful = Math.min(successful, data.successful);
  }
  const used = process.cpuUsage(cpu);
  recording = false;
  const direct: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await eachBounded(sent, CHUNK_PARALLELISM, async ({ url, init }) => {
      const res = await fetch(url, init);
      await res.text();
      if (res.status !== 200) throw new Error(`direct batch call failed (HTTP ${res.status})`);
    });
    direct.push(performance.now() - started);
  }
  const chunks = Math.ceil(count / CHUNK_SIZE);
  if (sent.length !== chunks) throw new Error(`expected ${chunks} batch calls, saw ${sent.length}`);
  const medianMs = median(elapsedMs);
  const floorMs = Math.ceil(chunks / CHUNK_PARALLELISM) * latencyMs;
  return {
    app,
    records: count,
    fields: Object.keys(inputs[0]!.fields).length,
    chunks,
    parallelism: CHUNK_PARALLELISM,
    latencyMs,
    floorMs,
    directMs: median(direct),
    elapsedMs,
    medianMs,
    ratio: medianMs / floorMs,
    successful,
    cpuMsPerRecord: (used.user + used.system) / 1000 / (runs * count),
  };
}

/** Record ids of the demo Leads (for the Deals' relation), read from Tape at `tapeUrl`. */
export async function leadIds(tapeUrl: string): Promise<number[]> {
  const res = await fetch(`${tapeUrl}/v1/record/app/${DEMO_LEADS_APP_ID}?limit=50`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
  const json = (await res.json()) as { records: { record_id: number }[] };
  return json.records.map((r) => r.record_id);
}
