import { daysBefore, type Core } from './dataset';

/**
 * BatchData's quick lists, each derived from the data the way its name says (docs/vendors/batchdata.md#quick-lists): a
 * record's `quickLists` booleans, `quickList`/`quickLists`/`orQuickLists` criteria (with the
 * `not-` prefix) and `quicklistCounts` all read this one table.
 *
 * The names are those of the API docs. Five more are not in the scraped docs and are the twin's
 * guess in BatchData's naming style, because the service's `quick_list` names them (docs/spec.md#realty-property):
 * `bank-owned`, `judgment-lien`, `hoa-lien`, `mechanics-lien`, `negative-equity`.
 */
const QUICK_LISTS: Record<string, (p: Core) => boolean> = {
  'absentee-owner': (p) => !p.ownerOccupied,
  'active-auction': (p) => p.auctionDate !== null,
  'active-listing': (p) => p.listing === 'Active',
  'bank-owned': (p) => p.bankOwned,
  'canceled-listing': (p) => p.listing === 'Canceled',
  'cash-buyer': (p) => p.cashPurchase && p.mortgageBalance === 0 && !p.bankOwned,
  'corporate-owned': (p) => p.ownerType === 'Corporate',
  'expired-listing': (p) => p.listing === 'Expired',
  'fix-and-flip': (p) =>
    p.priorSaleDate !== null && p.lastSaleDate !== null && daysBefore(p.priorSaleDate) - daysBefore(p.lastSaleDate) <= 365 && (p.lastSalePrice ?? 0) > (p.priorSalePrice ?? 0),
  'for-sale-by-owner': (p) => p.fsbo,
  'free-and-clear': (p) => p.mortgageBalance === 0,
  'has-hoa': (p) => p.hasHoa,
  'has-hoa-fees': (p) => p.hoaFee > 0,
  'high-equity': (p) => p.equityPercent >= 50,
  'hoa-lien': (p) => p.hoaLien,
  inherited: (p) => p.inherited,
  'involuntary-lien': (p) => p.judgmentLien || p.hoaLien || p.mechanicsLien,
  'in-state-absentee-owner': (p) => !p.ownerOccupied && p.mailing.state === p.state,
  'judgment-lien': (p) => p.judgmentLien,
  'listed-below-market-price': (p) => p.listing === 'Active' && p.listPrice !== null && p.listPrice < p.estimatedValue * 0.9,
  'low-equity': (p) => p.mortgageBalance > 0 && p.equityPercent < 20,
  'mailing-address-vacant': (p) => p.mailingVacant,
  'mechanics-lien': (p) => p.mechanicsLien,
  'negative-equity': (p) => p.equity < 0,
  'notice-of-default': (p) => p.preforeclosure && p.state !== 'OH',
  // Ohio forecloses through the courts: its notice is a lis pendens, not a notice of default.
  'notice-of-lis-pendens': (p) => p.preforeclosure && p.state === 'OH',
  'notice-of-sale': (p) => p.auctionDate !== null,
  'on-market': (p) => p.listing === 'Active' || p.listing === 'Pending',
  'out-of-state-absentee-owner': (p) => !p.ownerOccupied && p.mailing.state !== p.state,
  'out-of-state-owner': (p) => p.mailing.state !== p.state,
  'owner-occupied': (p) => p.ownerOccupied,
  'pending-listing': (p) => p.listing === 'Pending',
  preforeclosure: (p) => p.preforeclosure,
  'recently-sold': (p) => p.lastSaleDate !== null && daysBefore(p.lastSaleDate) <= 183,
  'same-property-and-mailing-address': (p) => p.ownerOccupied,
  'senior-owner': (p) => p.seniorOwner,
  'tax-default': (p) => p.taxDelinquentYear !== null,
  'tired-landlord': (p) => !p.ownerOccupied && p.ownerType !== 'Corporate' && p.lastSaleDate !== null && daysBefore(p.lastSaleDate) >= 15 * 365,
  'trust-owned': (p) => p.ownerType === 'Trust',
  'unknown-equity': () => false,
  vacant: (p) => p.vacant,
  'vacant-lot': (p) => p.type.category === 'Vacant Land',
};

export const QUICK_LIST_NAMES: readonly string[] = Object.keys(QUICK_LISTS);

/** `absentee-owner` → `absenteeOwner`: the key of the record's `quickLists` object. */
export const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export const isQuickList = (name: string) => Object.hasOwn(QUICK_LISTS, name.replace(/^not-/, ''));

/** Whether a property is on a list; `not-<name>` negates. */
export function onQuickList(p: Core, name: string): boolean {
  const negated = name.startsWith('not-');
  const test = QUICK_LISTS[negated ? name.slice(4) : name]!;
  return negated ? !test(p) : test(p);
}

/** The record's `quickLists` group: every list as a camelCase boolean. */
export function quickListFlags(p: Core): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [name, test] of Object.entries(QUICK_LISTS)) out[camel(name)] = test(p);
  return out;
}

/** `quicklistCounts`: how many of the matched properties are on each list. */
export function quickListCounts(props: readonly Core[]): { name: string; count: number }[] {
  return Object.entries(QUICK_LISTS).map(([name, test]) => ({ name, count: props.reduce((n, p) => n + (test(p) ? 1 : 0), 0) }));
}
