/**
 * The places the BatchData twin's synthetic dataset lives in: four real US counties with real
 * city centres, zip codes and FIPS codes, so an address reads true and distances between
 * properties (haversine on their coordinates) mean something. Street names are invented.
 */

export interface City {
  name: string;
  /** Centre of the city (degrees). */
  lat: number;
  lng: number;
  /** How far from the centre streets are laid out, in degrees of latitude (~69 miles per degree). */
  radius: number;
  /** Real zip codes of the city; each property takes the one whose (generated) centroid is nearest. */
  zips: readonly string[];
  /** Relative share of the county's properties. */
  weight: number;
  /** Typical price per living square foot in 2025, dollars. */
  pricePerSqft: number;
  /** Whether streets carry a directional prefix (Phoenix's "W Palmaire Ave"). */
  directional: boolean;
}

export interface County {
  name: string;
  state: string;
  /** 5-digit county FIPS code (state + county). */
  fips: string;
  timeZone: string;
  utcOffset: number;
  /** Properties generated in this county. */
  properties: number;
  /** The county assessor's ratio of assessed to market value. */
  assessmentRatio: number;
  /** Effective tax rate on market value. */
  taxRate: number;
  /** APN layout of the county assessor: `#` is a digit. */
  apnPattern: string;
  schoolDistricts: readonly string[];
  cities: readonly City[];
}

export const COUNTIES: readonly County[] = [
  {
    name: 'Maricopa',
    state: 'AZ',
    fips: '04013',
    timeZone: 'America/Phoenix',
    utcOffset: -7,
    properties: 4200,
    assessmentRatio: 0.1,
    taxRate: 0.0062,
    apnPattern: '###-##-###',
    schoolDistricts: ['Phoenix Union High School District', 'Scottsdale Unified District', 'Tempe Elementary District', 'Mesa Unified District'],
    cities: [
      { name: 'Phoenix', lat: 33.4484, lng: -112.074, radius: 0.06, zips: ['85004', '85006', '85008', '85012', '85013', '85014', '85016', '85018', '85020', '85021'], weight: 5, pricePerSqft: 285, directional: true },
      { name: 'Scottsdale', lat: 33.4942, lng: -111.9261, radius: 0.04, zips: ['85250', '85251', '85254', '85257'], weight: 2, pricePerSqft: 430, directional: true },
      { name: 'Tempe', lat: 33.4255, lng: -111.94, radius: 0.03, zips: ['85281', '85282', '85283'], weight: 1.5, pricePerSqft: 335, directional: true },
      { name: 'Mesa', lat: 33.4152, lng: -111.8315, radius: 0.045, zips: ['85201', '85203', '85204', '85210'], weight: 2, pricePerSqft: 275, directional: true },
    ],
  },
  {
    name: 'Travis',
    state: 'TX',
    fips: '48453',
    timeZone: 'America/Chicago',
    utcOffset: -6,
    properties: 3000,
    assessmentRatio: 1,
    taxRate: 0.0181,
    apnPattern: '##########',
    schoolDistricts: ['Austin Independent School District', 'Pflugerville Independent School District'],
    cities: [
      { name: 'Austin', lat: 30.2672, lng: -97.7431, radius: 0.06, zips: ['78701', '78702', '78703', '78704', '78705', '78722', '78723', '78741', '78745', '78751', '78757'], weight: 5, pricePerSqft: 395, directional: false },
      { name: 'Pflugerville', lat: 30.4394, lng: -97.62, radius: 0.03, zips: ['78660'], weight: 1, pricePerSqft: 245, directional: false },
    ],
  },
  {
    name: 'Franklin',
    state: 'OH',
    fips: '39049',
    timeZone: 'America/New_York',
    utcOffset: -5,
    properties: 2600,
    assessmentRatio: 0.35,
    taxRate: 0.0195,
    apnPattern: '###-######-##',
    schoolDistricts: ['Columbus City School District', 'Westerville City School District', 'South-Western City School District'],
    cities: [
      { name: 'Columbus', lat: 39.9612, lng: -82.9988, radius: 0.06, zips: ['43201', '43202', '43204', '43206', '43209', '43214', '43215', '43220'], weight: 5, pricePerSqft: 190, directional: false },
      { name: 'Westerville', lat: 40.1262, lng: -82.9291, radius: 0.03, zips: ['43081'], weight: 1, pricePerSqft: 230, directional: false },
      { name: 'Grove City', lat: 39.8815, lng: -83.093, radius: 0.03, zips: ['43123'], weight: 1, pricePerSqft: 200, directional: false },
    ],
  },
  {
    name: 'Denver',
    state: 'CO',
    fips: '08031',
    timeZone: 'America/Denver',
    utcOffset: -7,
    properties: 2200,
    assessmentRatio: 0.0671,
    taxRate: 0.0055,
    apnPattern: '#####-##-###-###',
    schoolDistricts: ['Denver Public Schools'],
    cities: [
      { name: 'Denver', lat: 39.7392, lng: -104.9903, radius: 0.05, zips: ['80202', '80203', '80205', '80206', '80209', '80210', '80211', '80218', '80220'], weight: 1, pricePerSqft: 430, directional: true },
    ],
  },
];

/** Invented street names (the suffix is chosen apart). */
export const STREET_NAMES = [
  'Palmaire', 'Orangewood', 'Montebello', 'Glendale', 'Bethany Home', 'Camelback', 'Indian School', 'Osborn', 'Thomas', 'Encanto', 'Palo Verde',
  'Mariposa', 'Catalina', 'Coronado', 'Cypress', 'Desert Willow', 'Mesquite', 'Saguaro', 'Ocotillo', 'Juniper', 'Aspen', 'Cedar', 'Elm', 'Maple',
  'Oak', 'Pine', 'Willow', 'Birch', 'Hickory', 'Magnolia', 'Sycamore', 'Walnut', 'Chestnut', 'Laurel', 'Linden', 'Poplar', 'Spruce', 'Alder',
  'Harvard', 'Yale', 'Princeton', 'Stanford', 'Cornell', 'Lincoln', 'Jefferson', 'Madison', 'Monroe', 'Jackson', 'Franklin', 'Grant', 'Garfield',
  'Riverside', 'Lakeview', 'Hillcrest', 'Sunset', 'Sunrise', 'Highland', 'Meadow', 'Prairie', 'Canyon', 'Mesa Verde', 'Ridgeview', 'Brookside',
  'Fairview', 'Park', 'Summit', 'Valley', 'Crestview', 'Woodland', 'Greenbriar', 'Silver Creek', 'Bluebonnet', 'Pecan', 'Live Oak', 'Buckeye',
  'Olentangy', 'Scioto', 'Alum Creek', 'Cherry Creek', 'Colfax', 'Evans', 'Speer', 'Larimer', 'Wynkoop', 'Blake', 'Market', 'Holly', 'Ivy',
] as const;

export const STREET_SUFFIXES = ['St', 'Ave', 'Rd', 'Dr', 'Ln', 'Ct', 'Pl', 'Way', 'Blvd', 'Cir', 'Ter', 'Pkwy'] as const;
export const DIRECTIONS = ['N', 'S', 'E', 'W'] as const;

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan',
  'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Maria', 'Daniel', 'Karen', 'Matthew', 'Nancy', 'Anthony', 'Lisa', 'Mark', 'Betty', 'Luis',
  'Sandra', 'Steven', 'Ashley', 'Andrew', 'Emily', 'Kenneth', 'Donna', 'Kevin', 'Michelle', 'Brian', 'Carol', 'Jorge', 'Amanda', 'Wei', 'Mei',
  'Priya', 'Raj', 'Fatima', 'Omar', 'Hannah', 'Noah', 'Olivia', 'Liam', 'Sofia', 'Mateo', 'Grace', 'Ethan', 'Chloe', 'Lucas', 'Aisha', 'Kenji',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez',
  'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark',
  'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams',
  'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Patel', 'Chen', 'Kim', 'Singh', 'Okafor', 'Novak', 'Schmidt',
] as const;

/** States out-of-state owners mail from, with a city and zip each. */
export const OUT_OF_STATE_MAIL = [
  { city: 'Los Angeles', state: 'CA', zip: '90024' },
  { city: 'San Jose', state: 'CA', zip: '95126' },
  { city: 'Seattle', state: 'WA', zip: '98109' },
  { city: 'Chicago', state: 'IL', zip: '60614' },
  { city: 'New York', state: 'NY', zip: '10025' },
  { city: 'Miami', state: 'FL', zip: '33131' },
  { city: 'Las Vegas', state: 'NV', zip: '89117' },
  { city: 'Salt Lake City', state: 'UT', zip: '84105' },
] as const;

/** Miles between two points (haversine on a sphere of the Earth's mean radius). */
export function milesBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
