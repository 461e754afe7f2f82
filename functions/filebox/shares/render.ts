import { listed, type Listed } from '../../../shared/core/listed';
import { toItem, type Item } from '../render';
import type { SfShare } from '../wire';

/** Shares as the filebox tools return them (docs/spec.md#filebox-share). */

/** Every field of the form asked for (full or summary) is present: its value, or null when ShareFile gives none. */
type ShareFields = Listed<SfShare, (typeof FULL)[number]>;
export type Share = Pick<ShareFields, 'Id' | 'ShareType'> & Partial<ShareFields> & {
  /** Request shares: the folder uploads go to. */
  Parent?: { Id: string };
  Items?: Item[];
  Recipients?: { Email?: string; Downloads?: number }[];
};

const FULL = [
  'Id', 'AliasID', 'ShareType', 'Title', 'HasSentMessage', 'RequireLogin', 'RequireUserInfo', 'ShareAccessLevel', 'CreationDate', 'ExpirationDate', 'MaxDownloads',
  'TotalDownloads', 'IsViewOnly', 'IsArchived', 'UsesStreamIDs', 'Uri', 'ShareSubType', 'ShareAccessRight', 'url',
] as const;
/** Summary of docs/spec.md#filebox-share; lists add CreationDate. */
const SUMMARY = ['Id', 'ShareType', 'Title', 'Uri', 'ExpirationDate', 'TotalDownloads', 'MaxDownloads'] as const;

export function toShare(w: SfShare, o: { summary?: boolean; inList?: boolean } = {}): Share {
  const keys: readonly (typeof FULL)[number][] = o.summary ? (o.inList ? [...SUMMARY, 'CreationDate'] : SUMMARY) : FULL;
  const out: Record<string, unknown> = listed(w, keys);
  if (!o.summary) {
    if (w.Parent) out.Parent = { Id: w.Parent.Id };
    if (w.Items && w.ShareType === 'Send') out.Items = w.Items.map((i) => toItem(i, true));
    if (w.Recipients) out.Recipients = w.Recipients.map((r) => ({ Email: r.Email, Downloads: r.Downloads ?? 0 }));
  }
  return out as unknown as Share;
}

const downloads = (s: Share) => (s.TotalDownloads == null ? '' : ` ${s.TotalDownloads}/${s.MaxDownloads === -1 || s.MaxDownloads == null ? '∞' : s.MaxDownloads} downloads`);

/** `s123 Send "Ortiz proposal" 2/10 downloads, expires 2027-03-05 — https://…`. */
export function shareLine(s: Share, now = Date.now()): string {
  const expired = s.ExpirationDate && Date.parse(s.ExpirationDate) <= now ? ' (expired)' : '';
  const expires = s.ExpirationDate ? `, expires ${s.ExpirationDate.slice(0, 10)}${expired}` : '';
  return `${s.Id} ${s.ShareType}${s.Title ? ` "${s.Title}"` : ''}${s.ShareType === 'Send' ? downloads(s) : ''}${expires}${s.Uri ? ` — ${s.Uri}` : ''}`;
}

/** A share with its items, recipients and settings under its line. */
export function shareDetail(s: Share): string {
  const lines = [shareLine(s)];
  const flags = [s.RequireLogin ? 'login required' : '', s.RequireUserInfo ? 'visitor info required' : '', s.IsViewOnly ? 'view only' : ''].filter(Boolean);
  if (flags.length) lines.push(`  ${flags.join(', ')}`);
  if (s.Parent) lines.push(`  uploads go to ${s.Parent.Id}`);
  for (const i of s.Items ?? []) lines.push(`  item ${i.Id} ${i.Name ?? ''}`.trimEnd());
  for (const r of s.Recipients ?? []) lines.push(`  recipient ${r.Email ?? ''}${r.Downloads ? ` (${r.Downloads} downloads)` : ''}`);
  return lines.join('\n');
}

