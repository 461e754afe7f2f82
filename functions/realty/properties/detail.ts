import { buildingText, quickListText, recordAddress, usd } from '../render';
import type { BdProperty } from '../wire';
import { formatAddress } from './address';

/**
 * One property in full, a line per record group (address and ids, building and lot, value and
 * equity, assessment and tax, sales, owner, liens and foreclosure, listing, quick lists): what
 * lookupProperty shows. Groups the record lacks are left out.
 */
export function propertyDetail(p: BdProperty): string {
  const lines: string[] = [];
  const ids = [p.address?.county ? `${p.address.county} County` : '', p.address?.countyFipsCode ? `FIPS ${p.address.countyFipsCode}` : '', p.ids?.apn ? `APN ${p.ids.apn}` : '']
    .filter(Boolean)
    .join(', ');
  const at = p.address?.latitude != null && p.address.longitude != null ? ` at ${p.address.latitude},${p.address.longitude}` : '';
  lines.push(`#${p._id} ${recordAddress(p)}${ids ? ` (${ids})` : ''}${at}`);

  const b = p.building;
  const lot = p.lot?.lotSizeSquareFeet !== undefined ? `lot ${p.lot.lotSizeSquareFeet.toLocaleString('en-US')} sqft${p.lot.lotSizeAcres !== undefined ? ` (${p.lot.lotSizeAcres} ac)` : ''}` : '';
  const kind = [p.general?.propertyTypeDetail ?? p.general?.propertyTypeCategory, buildingText(p), b?.storyCount ? `${b.storyCount} ${b.storyCount === 1 ? 'story' : 'stories'}` : '', b?.unitCount && b.unitCount > 1 ? `${b.unitCount} units` : '', b?.pool ? 'pool' : '', b?.garageParkingSpaceCount ? `${b.garageParkingSpaceCount}-car garage` : '', lot, p.general?.vacant ? 'vacant' : '']
    .filter(Boolean)
    .join(', ');
  if (kind) lines.push(kind);

  const v = p.valuation;
  if (v?.estimatedValue !== undefined) {
    const spread = v.priceRangeMin !== undefined && v.priceRangeMax !== undefined ? ` (${usd(v.priceRangeMin)}–${usd(v.priceRangeMax)}${v.confidenceScore !== undefined ? `, confidence ${v.confidenceScore}` : ''})` : '';
    const equity = v.equityPercent !== undefined ? `, equity ${v.equityPercent}%${v.equityCurrentEstimatedBalance !== undefined ? ` (${usd(v.equityCurrentEstimatedBalance)})` : ''}` : '';
    lines.push(`estimated value ${usd(v.estimatedValue)}${spread}${equity}${v.ltv ? `, LTV ${v.ltv}%` : ''}`);
  }
  const tax = p.tax;
  const assessed = p.assessment?.totalAssessedValue !== undefined ? `assessed ${p.assessment.assessmentYear ?? ''} ${usd(p.assessment.totalAssessedValue)}${p.assessment.totalMarketValue !== undefined ? ` (market ${usd(p.assessment.totalMarketValue)})` : ''}`.replace('  ', ' ') : '';
  const taxed = tax?.taxAmount !== undefined ? `tax ${tax.taxYear ?? ''} ${usd(tax.taxAmount)}`.replace('  ', ' ') + (tax.taxDelinquentYear ? `, delinquent since ${tax.taxDelinquentYear}` : '') : '';
  if (assessed || taxed) lines.push([assessed, taxed].filter(Boolean).join('; '));

  const sale = (label: string, s: NonNullable<BdProperty['sale']>['lastSale']) =>
    s?.saleDate ? `${label} ${s.saleDate}${s.price != null ? ` ${usd(s.price)}` : ''}${s.pricePerSquareFoot !== undefined ? ` (${usd(Math.round(s.pricePerSquareFoot))}/sqft)` : ''}${s.documentType ? `, ${s.documentType}` : ''}` : '';
  const sales = [sale('last sale', p.sale?.lastSale), sale('prior sale', p.sale?.priorSale)].filter(Boolean);
  if (sales.length) lines.push(sales.join('; '));

  const o = p.owner;
  if (o?.fullName) {
    const names = o.names && o.names.length > 1 ? o.names.map((x) => x.full).filter(Boolean).join(' & ') : o.fullName;
    const m = o.mailingAddress;
    const mailing = !o.ownerOccupied && m?.street ? `, mails to ${formatAddress(m)}` : '';
    lines.push(`owner ${names} (${[o.ownerStatusType?.toLowerCase(), o.ownerOccupied ? 'owner-occupied' : 'absentee', o.ownershipStartDate ? `since ${o.ownershipStartDate}` : ''].filter(Boolean).join(', ')})${mailing}`);
  }

  const liens: string[] = [];
  const open = p.openLien;
  if (open?.totalOpenLienBalance) {
    const m = open.mortgages?.[0];
    liens.push(`open mortgage balance ${usd(open.totalOpenLienBalance)}${m?.lenderName ? ` (${m.lenderName}${m.currentEstimatedInterestRate !== undefined ? `, ${m.currentEstimatedInterestRate}% ${m.interestRateType?.toLowerCase() ?? ''}`.trimEnd() : ''})` : ''}`);
  } else if (open) liens.push('no open mortgage');
  for (const l of p.involuntaryLien?.liens ?? []) liens.push(`${l.type ?? 'lien'}${l.amount !== undefined ? ` ${usd(l.amount)}` : ''}${l.recordingDate ? ` recorded ${l.recordingDate}` : ''}`);
  const f = p.foreclosure;
  if (f?.status) liens.push(`foreclosure: ${f.status}${f.recordingDate ? ` recorded ${f.recordingDate}` : ''}${f.auctionDate ? `, auction ${f.auctionDate}` : ''}`);
  if (liens.length) lines.push(liens.join('; '));

  const l = p.listing;
  if (l?.status) lines.push(`listing ${l.status}${l.price !== undefined ? ` at ${usd(l.price)}` : ''}${l.daysOnMarket !== undefined ? `, ${l.daysOnMarket} days on market` : ''}${l.forSaleByOwner ? ', for sale by owner' : ''}`);
  const lists = quickListText(p);
  if (lists) lines.push(`quick lists: ${lists}`);
  if (p.deedHistory?.length) lines.push(`${p.deedHistory.length} deed${p.deedHistory.length === 1 ? '' : 's'} on record — format=json returns the full record (deeds, mortgages, demographics…)`);
  return lines.join('\n');
}

