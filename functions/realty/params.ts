import * as z from 'zod';

/** Input fragments the realty tools share: address parts and the quick-list names. */

/** Most properties one search or comparables call returns (BatchData's `take` maximum, docs/spec.md#limits). */
export const MAX_TAKE = 500;

export const streetInput = (extra = '') =>
  z.string().trim().min(1).max(200).describe(`House number and street, e.g. "622 W Palmaire Ave" ("West Palmaire Avenue" is abbreviated for you)${extra}.`);
export const cityInput = () => z.string().trim().min(1).max(100).describe('City name, e.g. "Phoenix".');
export const stateInput = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/)
    .describe('Two-letter US state code, e.g. "AZ" (any case).');
export const zipInput = () =>
  z
    .string()
    .trim()
    .regex(/^\d{5}$/)
    .describe('Five-digit ZIP code, e.g. "85021".');

/**
 * The quick lists the service names (docs/spec.md#realty-property) and BatchData's own names for them: the
 * `quickList` criterion (kebab-case) and the record's `quickLists` flag (camelCase). BatchData's
 * docs list `active-auction`, `tax-default`, `notice-of-lis-pendens` and `free-and-clear` for four
 * of them; `bank-owned`, `judgment-lien`, `hoa-lien`, `mechanics-lien` and `negative-equity` are
 * not in its published list and follow its naming (docs/vendors/batchdata.md#quick-lists): changing one is one line here.
 */
export const QUICK_LISTS = {
  preforeclosure: { wire: 'preforeclosure', flag: 'preforeclosure', about: 'a notice of default or lis pendens is recorded' },
  auction: { wire: 'active-auction', flag: 'activeAuction', about: 'a foreclosure auction is scheduled' },
  bank_owned: { wire: 'bank-owned', flag: 'bankOwned', about: 'owned by a lender after foreclosure, REO' },
  vacant: { wire: 'vacant', flag: 'vacant', about: 'the building is vacant' },
  tax_lien: { wire: 'tax-default', flag: 'taxDefault', about: 'property taxes are delinquent' },
  judgment_lien: { wire: 'judgment-lien', flag: 'judgmentLien', about: 'a court judgment lien is recorded' },
  hoa_lien: { wire: 'hoa-lien', flag: 'hoaLien', about: 'the HOA has a lien for unpaid dues' },
  mechanic_lien: { wire: 'mechanics-lien', flag: 'mechanicsLien', about: "a contractor's lien is recorded" },
  lis_pendens: { wire: 'notice-of-lis-pendens', flag: 'noticeOfLisPendens', about: 'a lawsuit is pending, often a judicial foreclosure' },
  cash_buyer: { wire: 'cash-buyer', flag: 'cashBuyer', about: 'bought without a mortgage' },
  absentee_owner: { wire: 'absentee-owner', flag: 'absenteeOwner', about: 'the owner does not live there' },
  free_clear: { wire: 'free-and-clear', flag: 'freeAndClear', about: 'no open mortgage' },
  high_equity: { wire: 'high-equity', flag: 'highEquity', about: 'equity of 50 % or more' },
  negative_equity: { wire: 'negative-equity', flag: 'negativeEquity', about: 'owes more than the estimated value' },
} as const;

export type QuickListName = keyof typeof QUICK_LISTS;
export const QUICK_LIST_NAMES = Object.keys(QUICK_LISTS) as [QuickListName, ...QuickListName[]];

/** The service's name of a quick list BatchData names `wire`, if it is one of ours. */
export const quickListOfWire = (wire: string): QuickListName | undefined => QUICK_LIST_NAMES.find((n) => QUICK_LISTS[n].wire === wire);

/** The quick lists a record is on, by the service's names. */
export function flaggedQuickLists(flags: Record<string, boolean | undefined> | null | undefined): QuickListName[] {
  return flags ? QUICK_LIST_NAMES.filter((n) => flags[QUICK_LISTS[n].flag] === true) : [];
}

export const quickListInput = () =>
  z
    .enum(QUICK_LIST_NAMES)
    .optional()
    .describe(`Only properties on this list: ${QUICK_LIST_NAMES.map((n) => `${n} — ${QUICK_LISTS[n].about}`).join('; ')}.`);
