import type { Labels } from './labels';
import type { ObjectKind } from './kinds';

/** Shown by every record's id or not at all: HubSpot-maintained bookkeeping. */
const HIDDEN = new Set(['crm_object_id', 'createdate', 'crm_lastmodifieddate', 'lastmodifieddate']);
/** Shown in the title or a dedicated part. */
const SHOWN_APART = new Set(['dealname', 'amount', 'deal_currency_code', 'closedate', 'firstname', 'lastname', 'email', 'name', 'domain', 'subject']);

const money = (amount: string, currency?: string | null) => {
  const n = Number(amount);
  const s = Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : amount;
  return currency ? `${s} ${currency}` : s;
};

/** An ISO date-time at midnight UTC shows as its day; any other keeps its minutes. */
export function shortValue(v: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d+)?)?Z$/.exec(v);
  if (!m) return v;
  return m[2] === '00:00' ? m[1]! : `${m[1]} ${m[2]}`;
}

/**
 * One record on one line, id first (docs/architecture.md#text-output): `#123 Acme renewal — 12,000.00 USD, stage
 * Proposal (Sales Pipeline), closes 2026-12-15`; other non-empty properties follow as `name value`.
 */
export function recordLine(kind: ObjectKind, r: { id: string; properties: Record<string, string | null>; labels?: Labels }): string {
  const p = r.properties;
  const parts: string[] = [];
  if (p.amount) parts.push(money(p.amount, p.deal_currency_code));
  const pp = kind.pipeline;
  if (pp && p[pp.stage]) {
    const stage = r.labels?.stage ?? p[pp.stage];
    const pipeline = r.labels?.pipeline ?? p[pp.pipeline];
    parts.push(`${kind.type === 'tickets' ? 'status' : 'stage'} ${stage}${pipeline ? ` (${pipeline})` : ''}`);
  }
  if (p.closedate) parts.push(`closes ${shortValue(p.closedate)}`);
  for (const [k, v] of Object.entries(p)) {
    if (v === null || v === '' || HIDDEN.has(k) || SHOWN_APART.has(k) || (pp && (k === pp.stage || k === pp.pipeline))) continue;
    parts.push(`${k} ${shortValue(v)}`);
  }
  return `#${r.id} ${kind.title(p)}${parts.length ? ` — ${parts.join(', ')}` : ''}`;
}
