/**
 * Demo data of the Tape twin: a small sales pipeline in workspace 2 "Contact directory" —
 * "Leads" and "Deals" (each deal relates to a lead), covering the common field types, with a few
 * hundred realistic records. Deterministic (seeded PRNG): dates are written for DEMO_TODAY and
 * move with the day the twin starts (kit/seed-day.ts), so deals close this month and the next.
 *
 * The demo uses ids of its own (apps 901–902, fields from 9001, records from 5001, entry ids from
 * 900000) and leaves the counters after them, as a real account's history would: whatever the API
 * creates next gets a higher id than any demo entity, so "newest first" lists it first.
 */
import { prng } from '../kit';
import { createApp } from './routes/app';
import { insertRecord, prepareCreate } from './records';
import type { TapeState } from './state';
import { entryIdCounter } from './values';

export const DEMO_LEADS_APP_ID = 901;
export const DEMO_DEALS_APP_ID = 902;
export const DEMO_LEAD_COUNT = 180;
export const DEMO_DEAL_COUNT = 120;
/** The reference day (kit/seed-day.ts): a twin started on it holds the dates as written (records from January to February 2025). */
export const DEMO_TODAY = Date.UTC(2025, 2, 1);
const DEMO_WORKSPACE_ID = 2;


const FIRST = ['Olivia', 'Liam', 'Emma', 'Noah', 'Amelia', 'Oliver', 'Sophia', 'Elijah', 'Mia', 'Lucas', 'Hannah', 'Mateo', 'Lena', 'Jonas', 'Clara', 'Felix', 'Aisha', 'Ravi', 'Yuki', 'Chen', 'Fatima', 'Diego', 'Ingrid', 'Tomás', 'Priya', 'Kwame', 'Zara', 'Mats', 'Elif', 'Sven'];
const LAST = ['Schmidt', 'Müller', 'Johnson', 'Garcia', 'Nguyen', 'Rossi', 'Kowalski', 'Andersson', 'Okafor', 'Tanaka', 'Dubois', 'Silva', 'Novak', 'Fischer', 'Patel', 'Hughes', 'Kim', 'Larsen', 'Moreau', 'Weber', 'Costa', 'Yilmaz', 'Brennan', 'Haddad'];
const COMPANIES = [
  'Northwind Traders', 'Bluefin Logistics', 'Alpine Dairy GmbH', 'Cobalt Robotics', 'Helios Solar', 'Tidewater Foods', 'Quarry & Stone', 'Nimbus Analytics',
  'Redwood Dental', 'Vertex Architects', 'Lumen Optics', 'Harbor Freight Co.', 'Greenleaf Organics', 'Ironclad Security', 'Sapphire Hotels', 'Orbit Telecom',
  'Maple Street Bakery', 'Falcon Aerospace', 'Summit Outdoor', 'Brightpath Education', 'Copperline Media', 'Evergreen Clinics', 'Pioneer Insurance', 'Atlas Movers',
];
const PLACES = [
  { street: 'Hessstr. 6', postal: '80799', city: 'Munich', state: 'Bavaria', country: 'Germany', lat: 48.15397, lng: 11.55993 },
  { street: 'Friedrichstr. 68', postal: '10117', city: 'Berlin', state: 'Berlin', country: 'Germany', lat: 52.5112, lng: 13.3891 },
  { street: '221 Baker Street', postal: 'NW1 6XE', city: 'London', state: 'England', country: 'United Kingdom', lat: 51.5238, lng: -0.1586 },
  { street: '350 Fifth Avenue', postal: '10118', city: 'New York', state: 'NY', country: 'United States', lat: 40.7484, lng: -73.9857 },
  { street: 'Keizersgracht 123', postal: '1015 CJ', city: 'Amsterdam', state: 'North Holland', country: 'Netherlands', lat: 52.3738, lng: 4.8846 },
  { street: '1 Rue de Rivoli', postal: '75001', city: 'Paris', state: 'Île-de-France', country: 'France', lat: 48.8559, lng: 2.3533 },
  { street: 'Bahnhofstrasse 10', postal: '8001', city: 'Zurich', state: 'Zurich', country: 'Switzerland', lat: 47.3717, lng: 8.5388 },
  { street: '500 Terry Francine St', postal: '94158', city: 'San Francisco', state: 'CA', country: 'United States', lat: 37.7706, lng: -122.3874 },
];
const LEAD_NOTES = [
  '<p>Met at the <b>Hannover Messe</b>; interested in a pilot.</p>',
  '<p>Asked for pricing for 50 seats.</p>',
  '<p>Current tool is a spreadsheet; wants automations.</p>',
  '<p>Budget approval expected next quarter.</p>',
  '<p>Referred by an existing customer.</p>',
];
const FOLLOW_UPS = ['Send product deck', 'Book discovery call', 'Share case study', 'Introduce solutions engineer', 'Follow up on pricing'];
const NEXT_STEPS = ['Send proposal', 'Legal review', 'Security questionnaire', 'Kick-off meeting', 'Sign order form'];
const PRODUCTS = ['Core platform', 'Automations', 'Analytics add-on', 'Premium support', 'Onboarding package'];

const BASE = Date.UTC(2025, 0, 6, 9, 0, 0);
const HOUR = 3_600_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const slugName = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '');

/** Adds the demo apps and records to a fresh state (no events are emitted). */
export function seedDemo(state: TapeState, shift = 0): void {
  const owner = state.users.get(10000)!;
  const userIds = [...state.users.keys()];
  const entries = entryIdCounter(state);
  state.nextId.app = DEMO_LEADS_APP_ID;
  state.nextId.field = 9001;
  state.nextId.record = 5001;
  entries.next = 900_000;
  {
    const leads = createApp(state, owner, {
      workspace_id: DEMO_WORKSPACE_ID,
      name: 'Leads',
      item_name: 'Lead',
      description: 'Prospects before they become deals.',
      icon: { type: 'graphic', id: 'person_search' },
      fields: [
        { field_type: 'single_text', config: { label: 'Name', description: 'Full name of the lead.', required: true } },
        { field_type: 'single_text', config: { label: 'Company' } },
        { field_type: 'multi_email', config: { label: 'Email' } },
        { field_type: 'multi_phone', config: { label: 'Phone', settings: { call_link_scheme: 'tel' } } },
        { field_type: 'multi_link', config: { label: 'Website' } },
        { field_type: 'single_location', config: { label: 'Address', settings: { has_map: true } } },
        { field_type: 'single_category', config: { label: 'Source', settings: { options: [{ text: 'Website', color: 'blue' }, { text: 'Referral', color: 'green' }, { text: 'Event', color: 'purple' }, { text: 'Outbound', color: 'orange' }] } } },
        { field_type: 'multi_category', config: { label: 'Tags', settings: { options: [{ text: 'Enterprise', color: 'red' }, { text: 'SMB', color: 'yellow' }, { text: 'Hot', color: 'pink' }, { text: 'Needs demo', color: 'gray' }] } } },
        { field_type: 'status', config: { label: 'Status', required: true, settings: { options: [{ text: 'New', color: 'gray', means_completed: false }, { text: 'Working', color: 'blue', means_completed: false }, { text: 'Converted', color: 'green', means_completed: true }, { text: 'Disqualified', color: 'red', means_completed: true }] } } },
        { field_type: 'single_user', config: { label: 'Owner' } },
        { field_type: 'single_date', config: { label: 'First contact', settings: { time: 'disabled', calendar: false } } },
        { field_type: 'number', config: { label: 'Estimated value', settings: { decimals: 2, unit: '€', unit_location: 'suffix' } } },
        { field_type: 'multi_text', config: { label: 'Notes' } },
        { field_type: 'checklist', config: { label: 'Follow-ups' } },
      ],
    });
    const deals = createApp(state, owner, {
      workspace_id: DEMO_WORKSPACE_ID,
      name: 'Deals',
      item_name: 'Deal',
      description: 'Opportunities in the sales pipeline.',
      icon: { type: 'graphic', id: 'handshake' },
      fields: [
        { field_type: 'single_text', config: { label: 'Deal name', required: true } },
        { field_type: 'single_relation', config: { label: 'Lead', settings: { referenced_apps: [{ app_id: leads.app_id }] } } },
        { field_type: 'number', config: { label: 'Amount', settings: { decimals: 2, unit: '$', unit_location: 'prefix' } } },
        { field_type: 'status', config: { label: 'Stage', required: true, settings: { options: [{ text: 'Discovery', color: 'gray', means_completed: false }, { text: 'Proposal', color: 'blue', means_completed: false }, { text: 'Negotiation', color: 'yellow', means_completed: false }, { text: 'Won', color: 'green', means_completed: true }, { text: 'Lost', color: 'red', means_completed: true }] } } },
        { field_type: 'single_category', config: { label: 'Priority', settings: { options: [{ text: 'Low', color: 'gray' }, { text: 'Medium', color: 'yellow' }, { text: 'High', color: 'red' }] } } },
        { field_type: 'multi_category', config: { label: 'Products', settings: { options: PRODUCTS.map((text) => ({ text })) } } },
        { field_type: 'single_date', config: { label: 'Close date', settings: { time: 'disabled' } } },
        { field_type: 'range_date', config: { label: 'Contract period', settings: { end: 'enabled', time: 'disabled' } } },
        { field_type: 'single_user', config: { label: 'Account manager' } },
        { field_type: 'checklist', config: { label: 'Next steps' } },
        { field_type: 'multi_text', config: { label: 'Notes' } },
      ],
    });

    const rnd = prng(20250106);
    const leadIds: number[] = [];
    for (let i = 0; i < DEMO_LEAD_COUNT; i++) {
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const company = rnd.pick(COMPANIES);
      const domain = `${slugName(company).slice(0, 14)}.com`;
      const created = BASE + shift + i * 7 * HOUR + rnd.int(0, 59) * 60_000;
      const place = rnd.pick(PLACES);
      const fields: Record<string, unknown> = {
        name: `${first} ${last}`,
        company,
        email: [{ type: 'work', email: `${slugName(first)}.${slugName(last)}@${domain}` }],
        source: rnd.int(1, 4),
        status: rnd.pick([1, 1, 2, 2, 2, 3, 4]),
        owner: rnd.pick(userIds),
        first_contact: day(created + rnd.int(0, 10) * 24 * HOUR),
      };
      if (rnd.chance(0.7)) fields.phone = [{ type: rnd.pick(['work', 'mobile']), phone: `+49 89 ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}` }];
      if (rnd.chance(0.6)) fields.website = [`https://www.${domain}`];
      if (rnd.chance(0.8)) fields.address = { value: `${place.street}, ${place.postal} ${place.city}, ${place.country}`, street_address: place.street, postal_code: place.postal, city: place.city, state: place.state, country: place.country, latitude: place.lat, longitude: place.lng, map_in_sync: true };
      if (rnd.chance(0.6)) fields.tags = [...new Set([rnd.int(1, 4), rnd.int(1, 4)])];
      if (rnd.chance(0.75)) fields.estimated_value = rnd.int(20, 900) * 100;
      if (rnd.chance(0.4)) fields.notes = rnd.pick(LEAD_NOTES);
      if (rnd.chance(0.5)) {
        fields.follow_ups = [{ title: rnd.pick(FOLLOW_UPS), due_at: day(created + rnd.int(3, 20) * 24 * HOUR), assignee: rnd.pick(userIds), completed: rnd.chance(0.4) }];
      }
      const now = new Date(created);
      leadIds.push(insertRecord(state, leads, prepareCreate(state, leads, fields, now), { user: owner, now, quiet: true }).record_id);
    }

    for (let i = 0; i < DEMO_DEAL_COUNT; i++) {
      const leadId = leadIds[(i * 3 + rnd.int(0, 2)) % leadIds.length]!;
      const lead = state.records.get(leadId)!;
      const company = String(lead.values.get(leads.fields[1]!.field_id)?.[0]?.value ?? 'Account');
      const created = BASE + shift + 24 * HOUR + i * 10 * HOUR + rnd.int(0, 59) * 60_000;
      const close = created + rnd.int(14, 120) * 24 * HOUR;
      const fields: Record<string, unknown> = {
        deal_name: `${company} — ${rnd.pick(PRODUCTS)}`,
        lead: leadId,
        amount: rnd.int(12, 480) * 250,
        stage: rnd.pick([1, 1, 2, 2, 3, 4, 4, 5]),
        priority: rnd.int(1, 3),
        products: [...new Set([rnd.int(1, 5), rnd.int(1, 5)])],
        close_date: day(close),
        account_manager: rnd.pick(userIds),
      };
      if (rnd.chance(0.5)) fields.contract_period = `${day(close)} - ${day(close + 365 * 24 * HOUR)}`;
      if (rnd.chance(0.5)) fields.next_steps = [{ title: rnd.pick(NEXT_STEPS), assignee: rnd.pick(userIds) }, { title: rnd.pick(NEXT_STEPS), completed: rnd.chance(0.5) }];
      if (rnd.chance(0.3)) fields.notes = '<p>Decision maker: CFO. Wants a 12-month term.</p>';
      const now = new Date(created);
      insertRecord(state, deals, prepareCreate(state, deals, fields, now), { user: owner, now, quiet: true });
    }
  }
}
