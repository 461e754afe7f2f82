/**
 * The sandbox portal's demo CRM: 60 companies, 300 contacts (each linked to its company as
 * primary), 180 deals in the Sales and Renewals pipelines (linked to a company and one or two of
 * its contacts) and 120 support tickets. Deterministic (seeded PRNG) and written through the same
 * checks as API writes. Dates are written for HUBSPOT_DEMO.today and move with the day the twin
 * starts (kit/seed-day.ts): deals close this month and the next ones, tickets are recent. Built
 * once per process and start day; each twin works on a copy.
 */
import { prng, seedsByShift } from '../kit';
import { INDUSTRIES, OWNERS } from './model';
import { associate, copyState, emptyState, insertRecord, linkPrimaryCompany, type CrmRecord, type HubSpotState } from './state';

export const HUBSPOT_DEMO = {
  companies: 60,
  contacts: 300,
  deals: 180,
  tickets: 120,
  /** The first seeded id; companies come first, then contacts, deals and tickets. */
  firstId: 1001,
  /** The owner id of the sandbox owner key and of the member key. */
  owners: { owner: OWNERS[0].id, member: OWNERS[1].id },
  /** 2025-06-02T09:00:00Z: the first seeded record's creation time, on the reference day. */
  start: Date.UTC(2025, 5, 2, 9),
  /** The reference day: a twin started on it holds the dates as written (deals created in August and September 2025, tickets to mid-October). */
  today: Date.UTC(2025, 9, 20),
} as const;

const PREFIX = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Tyrell', 'Cyberdyne', 'Soylent', 'Hooli', 'Vandelay', 'Wonka', 'Aperture', 'Black Mesa', 'Massive Dynamic', 'Pied Piper', 'Dunder', 'Gringotts', 'Oscorp', 'Nakatomi'];
const SUFFIX = ['Labs', 'Logistics', 'Health', 'Retail', 'Systems'];
const FIRST = ['Ada', 'Ben', 'Carla', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam', 'Maya', 'Noah', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tara', 'Umar', 'Vera', 'Wen', 'Xavier', 'Yara', 'Zane'];
const LAST = ['Alvarez', 'Brooks', 'Chen', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jensen', 'Kowalski', 'Lopez', 'Murphy', 'Nguyen', 'Okafor', 'Patel', 'Rossi', 'Schmidt', 'Tanaka', 'Weber'];
const TITLES = ['CEO', 'CTO', 'Head of Operations', 'Procurement Manager', 'Sales Director', 'IT Manager', 'Finance Lead', 'Office Manager'];
const CITIES = [['Boston', 'United States'], ['Austin', 'United States'], ['Berlin', 'Germany'], ['London', 'United Kingdom'], ['Lyon', 'France'], ['Toronto', 'Canada']] as const;
const PRODUCTS = ['renewal', 'platform licence', 'onboarding package', 'analytics add-on', 'support plan', 'expansion'];
const ISSUES = ['Cannot log in', 'Invoice shows the wrong amount', 'Export to CSV fails', 'Request: dark mode', 'Sync stopped overnight', 'Password reset email missing', 'Question about seats', 'API returns 500 on search'];
const LIFECYCLE = ['lead', 'marketingqualifiedlead', 'salesqualifiedlead', 'opportunity', 'customer'];
const LEAD_STATUS = ['NEW', 'OPEN', 'IN_PROGRESS', 'CONNECTED', 'ATTEMPTED_TO_CONTACT'];
const SALES_STAGES = ['appointmentscheduled', 'qualifiedtobuy', 'presentationscheduled', 'decisionmakerboughtin', 'contractsent', 'closedwon', 'closedlost'];
const RENEWAL_STAGES = ['6482716', '6482717', '6482718', '6482719'];
const DAY = 86_400_000;

function made(r: CrmRecord | { problems: unknown[] }): CrmRecord {
  if ('problems' in r) throw new Error(`hubspot seed: ${JSON.stringify(r.problems)}`);
  return r;
}

function build(shift: number): HubSpotState {
  const state = emptyState();
  const r = prng(11);
  let at: number = HUBSPOT_DEMO.start + shift;
  const tick = () => (at += r.int(1, 9) * 3_600_000);
  const owner = () => r.pick(OWNERS).id;

  const companies: CrmRecord[] = [];
  for (let i = 0; i < HUBSPOT_DEMO.companies; i++) {
    const name = `${PREFIX[i % PREFIX.length]} ${SUFFIX[Math.floor(i / PREFIX.length) % SUFFIX.length]}`;
    const domain = `${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`;
    const [city, country] = r.pick(CITIES);
    companies.push(made(insertRecord(state, 'companies', {
      name, domain, website: `https://www.${domain}`, phone: `+1 617 555 ${String(1000 + i).slice(-4)}`, industry: r.pick(INDUSTRIES).value,
      city, country, numberofemployees: String(r.int(5, 4000)), annualrevenue: String(r.int(2, 900) * 100_000),
      type: r.pick(['PROSPECT', 'PARTNER', 'RESELLER', 'OTHER']), lifecyclestage: r.pick(['lead', 'opportunity', 'customer']), hubspot_owner_id: owner(),
    }, tick())));
  }

  const staff = new Map<string, CrmRecord[]>();
  for (let i = 0; i < HUBSPOT_DEMO.contacts; i++) {
    const company = companies[i % companies.length]!;
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]!;
    const contact = made(insertRecord(state, 'contacts', {
      firstname: first, lastname: last, email: `${first}.${last}${i >= 260 ? i : ''}@${company.properties.domain}`.toLowerCase(),
      phone: `+1 617 555 ${String(2000 + i).slice(-4)}`, company: company.properties.name, jobtitle: r.pick(TITLES),
      city: company.properties.city, country: company.properties.country, lifecyclestage: r.pick(LIFECYCLE), hs_lead_status: r.pick(LEAD_STATUS),
      hubspot_owner_id: owner(),
    }, tick()));
    linkPrimaryCompany(state, 'contacts', contact.id, company.id);
    staff.set(company.id, [...(staff.get(company.id) ?? []), contact]);
  }

  for (let i = 0; i < HUBSPOT_DEMO.deals; i++) {
    const company = companies[r.int(0, companies.length - 1)]!;
    const renewal = r.chance(0.25);
    const stage = renewal ? r.pick(RENEWAL_STAGES) : r.pick(SALES_STAGES);
    const product = renewal ? 'renewal' : r.pick(PRODUCTS);
    const created = tick();
    const deal = made(insertRecord(state, 'deals', {
      dealname: `${company.properties.name} ${product}`, amount: String(r.int(5, 400) * 250), deal_currency_code: 'USD',
      pipeline: renewal ? '6482715' : 'default', dealstage: stage, closedate: String(Math.floor((created + r.int(14, 200) * DAY) / DAY) * DAY),
      dealtype: renewal ? 'existingbusiness' : r.pick(['newbusiness', 'existingbusiness']), hs_priority: r.pick(['low', 'medium', 'high']), hubspot_owner_id: owner(),
    }, created));
    linkPrimaryCompany(state, 'deals', deal.id, company.id);
    const people = staff.get(company.id) ?? [];
    for (const p of people.slice(0, r.int(1, 2))) associate(state, 'deals', deal.id, 'contacts', p.id, 3);
  }

  for (let i = 0; i < HUBSPOT_DEMO.tickets; i++) {
    const company = companies[r.int(0, companies.length - 1)]!;
    const stage = r.pick(['1', '2', '3', '4']);
    const ticket = made(insertRecord(state, 'tickets', {
      subject: r.pick(ISSUES), content: `Reported by ${company.properties.name}.`, hs_pipeline: '0', hs_pipeline_stage: stage,
      hs_ticket_priority: r.pick(['LOW', 'MEDIUM', 'HIGH', 'URGENT']), hs_ticket_category: r.pick(['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY']),
      source_type: r.pick(['EMAIL', 'PHONE', 'CHAT', 'FORM']), hubspot_owner_id: owner(),
    }, tick()));
    linkPrimaryCompany(state, 'tickets', ticket.id, company.id);
    const contact = (staff.get(company.id) ?? [])[0];
    if (contact) associate(state, 'tickets', ticket.id, 'contacts', contact.id, 16);
  }
  return state;
}

const seeds = seedsByShift(build);

/** A fresh copy of the demo state moved by `shift` ms (kit/seed-day.ts); the seed itself is built once per shift. */
export function seedDemoState(shift = 0): HubSpotState {
  return copyState(seeds(shift));
}
