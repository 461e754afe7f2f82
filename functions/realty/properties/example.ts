import type { BdEnvelope, BdProperty } from '../wire';

/** A realistic record and envelope for the tools' examples (documentation and the registry test), cut to the groups the text reads. */
export const EXAMPLE_PROPERTY: BdProperty = {
  _id: '66a1f0c2e4b0a1b2c3d4e5f6',
  address: {
    street: '622 W Palmaire Ave', city: 'Phoenix', state: 'AZ', zip: '85021', zipPlus4: '8767', county: 'Maricopa', countyFipsCode: '04013',
    latitude: 33.5533, longitude: -112.0818, formattedStreet: '622 W PALMAIRE AVE',
  },
  ids: { apn: '158-21-047', fipsCode: '04013', taxId: '15821047' },
  general: { propertyTypeCategory: 'Residential', propertyTypeDetail: 'Single Family Residential', vacant: false },
  building: { yearBuilt: 1962, bedroomCount: 3, bathroomCount: 2, livingAreaSquareFeet: 1450, totalBuildingAreaSquareFeet: 1450, storyCount: 1, unitCount: 1, garageParkingSpaceCount: 2, pool: true },
  lot: { lotSizeAcres: 0.17, lotSizeSquareFeet: 7405, zoningCode: 'R1-6' },
  valuation: { estimatedValue: 412000, priceRangeMin: 379000, priceRangeMax: 445000, confidenceScore: 87, equityPercent: 62, equityCurrentEstimatedBalance: 255000, ltv: 38.1 },
  assessment: { assessmentYear: 2025, totalAssessedValue: 35600, totalMarketValue: 356000 },
  tax: { taxAmount: 2207.2, taxYear: 2024 },
  sale: { lastSale: { saleDate: '2019-05-03', price: 310000, pricePerSquareFoot: 213.79, documentType: 'Warranty Deed' } },
  owner: {
    fullName: 'Maria Lopez', names: [{ first: 'Maria', last: 'Lopez', full: 'Maria Lopez' }], ownerOccupied: false, ownerStatusType: 'Individual', ownershipStartDate: '2019-05-03',
    mailingAddress: { street: '1840 Ocotillo Dr', city: 'Tempe', state: 'AZ', zip: '85281' },
  },
  quickLists: { absenteeOwner: true, inStateAbsenteeOwner: true, highEquity: true, freeAndClear: false, ownerOccupied: false, vacant: false },
  openLien: { totalOpenLienCount: 1, totalOpenLienBalance: 157000, mortgages: [{ lenderName: 'Rocket Mortgage LLC', currentEstimatedInterestRate: 3.25, interestRateType: 'Fixed' }] },
  deedHistory: [{ recordingDate: '2019-05-10', salePrice: 310000, documentType: 'Warranty Deed' }],
};

export const EXAMPLE_META = { apiVersion: '1.0.0', requestId: 'M2CiaQam0XxT64K' };

export const EXAMPLE_ENVELOPE: BdEnvelope = {
  status: { code: 200, text: 'OK' },
  results: {
    properties: [EXAMPLE_PROPERTY],
    meta: { ...EXAMPLE_META, results: { requestCount: 1, matchCount: 1, noMatchCount: 0, errorCount: 0, resultCount: 1, skipTraceMatchCount: 0 } },
  },
};
