import { createHash } from 'node:crypto';
import { prng } from '../kit';
import { AS_OF, daysBefore, type Core } from './dataset';
import { FIRST_NAMES, LAST_NAMES } from './geography';
import { quickListFlags } from './quicklists';

/**
 * A property's full BatchData record (docs/vendors/batchdata.md#property-record: `_id`, address, ids, general, building,
 * lot, valuation, assessment, tax, sale, owner, quickLists, deedHistory, mortgageHistory,
 * openLien, involuntaryLien, foreclosure, listing, demographics, intel, legal, permit,
 * propertyOwnerProfile), built from the core and the property's own seed: the same every time.
 * Groups with nothing to say are left out, as BatchData leaves them out.
 */

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const money = (n: number) => Math.round(n * 100) / 100;

export function addressHash(p: Core): string {
  return md5(`${p.street}, ${p.city}, ${p.state} ${p.zip}`.toUpperCase());
}

function dateOnly(date: string, format: 'iso-date' | 'iso-date-time'): string {
  return format === 'iso-date-time' ? `${date}T00:00:00.000Z` : date;
}

export function buildRecord(p: Core, format: 'iso-date' | 'iso-date-time' = 'iso-date'): Record<string, unknown> {
  const r = prng(p.seed);
  const d = (date: string | null) => (date === null ? undefined : dateOnly(date, format));
  const hash = addressHash(p);
  const land = p.type.category === 'Vacant Land';
  const ownershipYears = p.lastSaleDate ? Math.floor(daysBefore(p.lastSaleDate) / 365.25) : 0;
  const docNumber = () => `${(p.lastSaleDate ?? AS_OF).slice(0, 4)}${String(r.int(100000, 999999))}`;
  const person = () => {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    return `${first} ${last}`;
  };
  const sellers = [person()];
  const buyers = [p.ownerName];

  const lastSale = p.lastSaleDate
    ? {
        saleDate: d(p.lastSaleDate),
        recordingDate: d(shift(p.lastSaleDate, -r.int(2, 20))),
        price: p.lastSalePrice,
        pricePerSquareFoot: p.sqft && p.lastSalePrice ? money(p.lastSalePrice / p.sqft) : undefined,
        documentType: p.lastSaleDocument,
        documentNumber: docNumber(),
        transactionType: p.bankOwned ? 'REO Sale' : p.inherited ? 'Inheritance' : 'Resale',
        saleBuyers: buyers,
        saleSellers: sellers,
        salePriceIsEstimated: false,
      }
    : undefined;
  const priorSale = p.priorSaleDate
    ? { saleDate: d(p.priorSaleDate), recordingDate: d(shift(p.priorSaleDate, -7)), price: p.priorSalePrice, documentType: 'Warranty Deed', documentNumber: docNumber(), transactionType: 'Resale', saleBuyers: sellers, saleSellers: [person()] }
    : undefined;

  const deedHistory: Record<string, unknown>[] = [];
  if (lastSale) {
    deedHistory.push({
      recordingDate: lastSale.recordingDate, saleDate: lastSale.saleDate, salePrice: p.lastSalePrice, documentType: p.lastSaleDocument, documentNumber: lastSale.documentNumber,
      transactionType: lastSale.transactionType, buyers, sellers, interFamily: p.inherited, foreclosure: p.bankOwned, reoSale: p.bankOwned, resale: !p.bankOwned, newConstruction: false,
      transactionId: md5(`${p.id}-deed-0`).slice(0, 16), mailingAddress: { ...p.mailing },
    });
  }
  if (priorSale) {
    deedHistory.push({
      recordingDate: priorSale.recordingDate, saleDate: priorSale.saleDate, salePrice: p.priorSalePrice, documentType: 'Warranty Deed', documentNumber: priorSale.documentNumber,
      transactionType: 'Resale', buyers: sellers, sellers: priorSale.saleSellers, interFamily: false, foreclosure: false, reoSale: false, resale: true,
      newConstruction: p.yearBuilt !== null && Number(p.priorSaleDate!.slice(0, 4)) <= p.yearBuilt + 1, transactionId: md5(`${p.id}-deed-1`).slice(0, 16),
    });
  }

  const lender = r.pick(['Wells Fargo Bank N.A.', 'Rocket Mortgage LLC', 'United Wholesale Mortgage', 'Bank of America N.A.', 'loanDepot.com LLC', 'Guild Mortgage Company', 'PennyMac Loan Services']);
  const rate = Math.round((2.6 + r.next() * 4.6) * 100) / 100;
  const mortgages = p.mortgageOriginal
    ? [{
        loanType: r.pick(['Conventional', 'FHA', 'VA']), loanAmount: p.mortgageOriginal, currentEstimatedBalance: p.mortgageBalance, currentEstimatedInterestRate: rate,
        interestRateType: r.chance(0.85) ? 'Fixed' : 'Adjustable', lenderName: lender, recordingDate: lastSale?.recordingDate, documentNumber: docNumber(), loanTermMonths: 360,
        estimatedPaymentAmount: Math.round((p.mortgageOriginal * (rate / 1200)) / (1 - (1 + rate / 1200) ** -360)), ltv: p.estimatedValue ? Math.round((p.mortgageBalance / p.estimatedValue) * 100) : 0,
      }]
    : [];

  const liens: Record<string, unknown>[] = [];
  if (p.judgmentLien) liens.push({ type: 'Judgment Lien', amount: r.int(2, 60) * 500, recordingDate: d(shift(AS_OF, r.int(30, 900))), creditor: r.pick(['Midland Credit Management', 'Capital One Bank', 'Discover Bank']) });
  if (p.hoaLien) liens.push({ type: 'HOA Lien', amount: r.int(4, 40) * 100, recordingDate: d(shift(AS_OF, r.int(30, 600))), creditor: `${p.streetName.replace(/^[NSEW] /, '')} Homeowners Association` });
  if (p.mechanicsLien) liens.push({ type: "Mechanic's Lien", amount: r.int(10, 120) * 100, recordingDate: d(shift(AS_OF, r.int(30, 400))), creditor: r.pick(['Valley Roofing Inc', 'Summit Plumbing LLC', 'Cornerstone Builders']) });

  const names = p.ownerType === 'Individual' ? [{ first: p.ownerFirst, last: p.ownerLast, full: p.ownerName }] : [{ full: p.ownerName }];
  if (p.ownerType === 'Individual' && r.chance(0.45)) {
    const spouse = r.pick(FIRST_NAMES);
    names.push({ first: spouse, last: p.ownerLast, full: `${spouse} ${p.ownerLast}` });
  }

  const record: Record<string, unknown> = {
    _id: p.id,
    address: {
      houseNumber: p.houseNumber, street: p.street, city: p.city, state: p.state, zip: p.zip, zipPlus4: p.zipPlus4, county: p.county, countyFipsCode: p.fips,
      latitude: p.lat, longitude: p.lng, formattedStreet: p.street.toUpperCase(), hash, addressValidity: 'Valid',
    },
    ids: { apn: p.apn, fipsCode: p.fips, taxId: p.apn.replace(/\D/g, ''), addressHash: hash },
    general: {
      propertyTypeCategory: p.type.category, propertyTypeDetail: p.type.detail, standardizedLandUseCode: p.type.landUseCode, vacant: p.vacant, mailingAddressVacant: p.mailingVacant,
      censusTract: `${p.fips}${String(1000 + (p.index % 900)).padStart(6, '0')}`, schoolDistrict: r.pick(p.countyRef.schoolDistricts), parcelCount: 1, primaryParcel: true,
      timeZone: p.countyRef.timeZone, utcOffset: p.countyRef.utcOffset,
    },
    building: land
      ? undefined
      : {
          yearBuilt: p.yearBuilt, effectiveYearBuilt: Math.min(2025, p.yearBuilt! + (r.chance(0.3) ? r.int(5, 20) : 0)),
          bedroomCount: p.beds || undefined, bathroomCount: p.baths, fullBathroomCount: p.fullBaths, partialBathroomCount: p.halfBaths, livingAreaSquareFeet: p.sqft,
          totalBuildingAreaSquareFeet: p.sqft, storyCount: p.stories, roomCount: p.beds + p.fullBaths + r.int(2, 4), unitCount: p.units, buildingCount: 1,
          garage: p.garageSpaces ? r.pick(['Attached Garage', 'Detached Garage', 'Carport']) : undefined, garageParkingSpaceCount: p.garageSpaces || undefined, pool: p.pool,
          basementType: p.state === 'OH' || p.state === 'CO' ? r.pick(['Full', 'Partial', 'Unfinished']) : undefined,
          constructionType: r.pick(['Frame', 'Masonry', 'Block', 'Stucco']), roofCover: r.pick(['Composition Shingle', 'Tile', 'Metal', 'Asphalt']),
          style: r.pick(['Ranch', 'Contemporary', 'Traditional', 'Bungalow', 'Colonial', 'Spanish']), buildingCondition: r.pick(['Average', 'Good', 'Fair', 'Excellent']),
          features: [...(p.pool ? ['Pool'] : []), ...(r.chance(0.8) ? ['Central Air'] : []), ...(r.chance(0.3) ? ['Fireplace'] : []), ...(r.chance(0.2) ? ['Patio'] : [])],
        },
    lot: {
      lotSizeAcres: Math.round((p.lotSqft / 43560) * 10000) / 10000, lotSizeSquareFeet: p.lotSqft, lotDepthFeet: Math.round(Math.sqrt(p.lotSqft) * 1.4), lotFrontageFeet: Math.round(Math.sqrt(p.lotSqft) / 1.4),
      zoningCode: p.type.category === 'Residential' ? r.pick(['R1-6', 'R1-8', 'R-2', 'SF-3', 'R-3']) : r.pick(['C-1', 'C-2', 'O-1', 'A-1']),
    },
    valuation: {
      estimatedValue: p.estimatedValue, priceRangeMin: Math.round(p.estimatedValue * 0.92), priceRangeMax: Math.round(p.estimatedValue * 1.08), confidenceScore: r.int(62, 98),
      standardDeviation: Math.round(p.estimatedValue * 0.04), asOfDate: d(AS_OF), equityPercent: p.equityPercent, equityCurrentEstimatedBalance: p.equity,
      ltv: p.estimatedValue ? Math.round((p.mortgageBalance / p.estimatedValue) * 10000) / 100 : 0,
    },
    assessment: {
      assessmentYear: 2025, totalAssessedValue: p.assessedValue, assessedLandValue: Math.round(p.assessedValue * 0.25), assessedImprovementValue: p.assessedValue - Math.round(p.assessedValue * 0.25),
      marketValueYear: 2025, totalMarketValue: p.marketValue, landMarketValue: Math.round(p.marketValue * 0.25), improvementMarketValue: p.marketValue - Math.round(p.marketValue * 0.25),
    },
    tax: {
      taxAmount: p.taxAmount, taxYear: 2024, taxDelinquentYear: p.taxDelinquentYear ?? undefined, taxExemptions: p.ownerOccupied ? ['Homeowner'] : [],
      taxRateCodeArea: `${p.fips.slice(2)}${String(p.index % 97).padStart(2, '0')}`,
    },
    sale: lastSale ? { lastSale, lastTransfer: lastSale, priorSale } : undefined,
    owner: {
      fullName: p.ownerName, names, mailingAddress: { ...p.mailing, county: p.mailing.state === p.state ? p.county : undefined, hash: md5(`${p.mailing.street}|${p.mailing.zip}`) },
      ownerOccupied: p.ownerOccupied, ownerStatusType: p.ownerType === 'Corporate' ? 'Company' : p.ownerType === 'Trust' ? 'Trust' : 'Individual',
      ownershipStartDate: d(p.lastSaleDate), lengthOfResidenceMonths: p.ownerOccupied ? ownershipYears * 12 : undefined, lengthOfResidenceYears: p.ownerOccupied ? ownershipYears : undefined,
    },
    quickLists: quickListFlags(p),
    deedHistory,
    mortgageHistory: mortgages.map((m) => ({ ...m })),
    openLien: { totalOpenLienCount: mortgages.length, totalOpenLienBalance: p.mortgageBalance, mortgages },
    involuntaryLien: liens.length ? { liens, totalLienCount: liens.length, totalLienAmount: liens.reduce((s, l) => s + (l.amount as number), 0) } : undefined,
    foreclosure: p.preforeclosure
      ? {
          status: p.auctionDate ? 'Notice of Sale' : p.state === 'OH' ? 'Lis Pendens' : 'Notice of Default', recordingDate: d(p.foreclosureRecording), auctionDate: d(p.auctionDate),
          documentType: p.state === 'OH' ? 'Lis Pendens' : 'Notice of Trustee Sale', defaultAmount: Math.round(p.mortgageBalance * 0.04), unpaidBalance: p.mortgageBalance,
          trusteeName: r.pick(['Quality Loan Service Corp', 'Clear Recon Corp', 'Barrett Daffin Frappier']), lenderName: lender,
        }
      : undefined,
    listing: p.listing
      ? { status: p.listing, price: p.listPrice, daysOnMarket: r.int(3, 140), listingDate: d(shift(AS_OF, r.int(3, 140))), forSaleByOwner: p.fsbo, brokerageName: p.fsbo ? undefined : r.pick(['Keller Williams', 'RE/MAX', 'Coldwell Banker', 'eXp Realty']) }
      : undefined,
    demographics: p.ownerType === 'Individual' ? { age: p.seniorOwner ? r.int(65, 88) : r.int(25, 64), householdSize: r.int(1, 5), income: r.int(35, 240) * 1000, netWorth: r.int(20, 1500) * 1000, maritalStatus: names.length > 1 ? 'Married' : 'Single' } : undefined,
    intel: { lastSoldDate: d(p.lastSaleDate), lastSoldPrice: p.lastSalePrice ?? undefined, salePropensity: r.int(1, 100), salePropensityCategory: r.pick(['Low', 'Medium', 'High']) },
    legal: { legalDescription: `LOT ${r.int(1, 220)} ${p.streetName.replace(/^[NSEW] /, '').toUpperCase()} ${r.pick(['ESTATES', 'UNIT 2', 'ADDITION', 'TRACT'])}`, subdivisionName: `${p.streetName.replace(/^[NSEW] /, '')} ${r.pick(['Estates', 'Park', 'Heights', 'Village'])}` },
    permit: r.chance(0.3) ? { permitCount: r.int(1, 6), lastPermitDate: d(shift(AS_OF, r.int(30, 3000))), lastPermitType: r.pick(['Roof', 'Electrical', 'Solar', 'Plumbing', 'Remodel']) } : undefined,
    propertyOwnerProfile: {
      propertiesCount: p.ownerType === 'Corporate' ? r.int(2, 60) : r.chance(0.2) ? r.int(2, 5) : 1,
      propertiesTotalEstimatedValue: p.estimatedValue, propertiesTotalEquity: p.equity, mortgagesCount: mortgages.length, mortgagesTotalBalance: p.mortgageBalance,
    },
    dateModified: d(AS_OF),
  };
  return prune(record) as Record<string, unknown>;
}

/** A YYYY-MM-DD date moved by `days` (positive: earlier). */
function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** Leaves out undefined members, as JSON would, but also at the top so a record is compared as sent. */
function prune(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(prune);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = prune(x);
    return out;
  }
  return v;
}
