/**
 * Demo data of the Podio twin: "Sandbox Co" with a Sales space (Companies, Deals) and an Operations
 * space (Projects), six users whose user ids (1001–1006) and profile ids (5101–5106) differ, apps
 * covering every field type of docs/vendors/podio.md#field-types 300 items, comments with mentions, embeds and files.
 * Deterministic (seeded PRNG), written through the same checks as API writes. Dates are written for
 * PODIO_DEMO.today and move with the day the twin starts (kit/seed-day.ts): deals close in the weeks
 * around it, tasks fall due that week. Files are real documents (kit/documents.ts). Every id the API
 * hands out later lies above the seeded ones.
 */
import { prng } from '../kit';
import { textImage, tinyDocx, tinyPdf, tinyPng, tinyPptx, tinyXlsx } from '../kit/documents';
import { createItem, updateItem } from './items';
import { seedGrants } from './grants';
import { seedViews } from './views';
import { seedConversations } from './conversations';
import { seedTasks } from './tasks';
import { emptyState, nextId, podioDateTime, registerSandboxKeys, type PodioAppRow, type PodioFieldRow, type PodioState, type PodioUser } from './state';

const opt = (id: number, text: string, color: string) => ({ id, text, color, status: 'active' });

export const PODIO_DEMO = {
  org: { org_id: 7001, name: 'Sandbox Co', url_label: 'sandbox-co' },
  spaces: { sales: 7101, operations: 7102 },
  /** The sandbox key owner (org admin, both spaces) and the plain member (Sales only). */
  users: {
    owner: { user_id: 1001, profile_id: 5101, name: 'Ann Becker', mail: 'ann.becker@sandbox-co.test' },
    ben: { user_id: 1002, profile_id: 5102, name: 'Ben Okafor', mail: 'ben.okafor@sandbox-co.test' },
    chloe: { user_id: 1003, profile_id: 5103, name: 'Chloé Martin', mail: 'chloe.martin@sandbox-co.test' },
    david: { user_id: 1004, profile_id: 5104, name: 'David Kim', mail: 'david.kim@sandbox-co.test' },
    elena: { user_id: 1005, profile_id: 5105, name: 'Elena Rossi', mail: 'elena.rossi@sandbox-co.test' },
    member: { user_id: 1006, profile_id: 5106, name: 'Felix Wagner', mail: 'felix.wagner@sandbox-co.test' },
  },
  /** POST /oauth/token grant_type=password: these user names (or any user's mail) with PASSWORD. */
  logins: { owner: 'owner@sandbox.test', member: 'member@sandbox.test' },
  password: 'sandbox',
  apps: { companies: 8101, deals: 8102, projects: 8201 },
  fields: {
    companies: { name: 9101, industry: 9102, address: 9103, phone: 9104, email: 9105, website: 9106, logo: 9107, employees: 9108, accountManager: 9109 },
    deals: { title: 9201, company: 9202, amount: 9203, stage: 9204, products: 9205, closeDate: 9206, probability: 9207, owner: 9208, weightedValue: 9209, notes: 9210 },
    projects: { name: 9301, deal: 9302, status: 9303, timeline: 9304, effort: 9305, completion: 9306, team: 9307, attachments: 9308, budget: 9309, description: 9310 },
  },
  options: {
    industry: { software: 301, manufacturing: 302, retail: 303, healthcare: 304, logistics: 305, finance: 306 },
    stage: { lead: 401, qualified: 402, proposal: 403, won: 404, lost: 405 },
    products: { platform: 411, automations: 412, analytics: 413, support: 414, onboarding: 415 },
    status: { planned: 501, inProgress: 502, onHold: 503, done: 504 },
  },
  /** Item ids: companies 30001–30060, deals 30061–30220, projects 30221–30300. */
  items: { firstCompany: 30001, firstDeal: 30061, firstProject: 30221, last: 30300 },
  counts: { companies: 60, deals: 160, projects: 80 },
  /** The reference day (kit/seed-day.ts): a twin started on it holds the dates as written (items from August 2025 to early January 2026, deals closing that month and the next, tasks due that week). */
  today: Date.UTC(2026, 0, 15),
  /** The first seeded comment id, file id and embed id. */
  firstIds: { comment: 90001, file: 60001, embed: 70001 },
} as const;

const F = PODIO_DEMO.fields;
const O = PODIO_DEMO.options;

function field(field_id: number, type: string, external_id: string, label: string, delta: number, settings: Record<string, unknown> = {}, required = false, description: string | null = null): PodioFieldRow {
  return { field_id, external_id, type, label, status: 'active', config: { label, description, delta, required, settings } };
}

function apps(): PodioAppRow[] {
  const S = PODIO_DEMO.spaces;
  return [
    {
      app_id: PODIO_DEMO.apps.companies, space_id: S.sales, url_label: 'companies', name: 'Companies', item_name: 'Company', icon: '20.png', description: 'Customers and prospects.', token: 'sbx-app-token-8101', lastAppItemId: 0,
      fields: [
        field(F.companies.name, 'text', 'company-name', 'Company name', 0, { size: 'small', format: 'plain' }, true),
        field(F.companies.industry, 'category', 'industry', 'Industry', 1, { multiple: false, display: 'inline', options: [opt(301, 'Software', 'DCEBD8'), opt(302, 'Manufacturing', 'F7F0C5'), opt(303, 'Retail', 'FFD5C2'), opt(304, 'Healthcare', 'D2E4EB'), opt(305, 'Logistics', 'E1D8ED'), opt(306, 'Finance', 'F2F2F2')] }),
        field(F.companies.address, 'location', 'address', 'Address', 2, { has_map: true }),
        field(F.companies.phone, 'tel', 'phone', 'Phone', 3, { possible_types: ['work', 'mobile', 'main', 'other'] }),
        field(F.companies.email, 'email', 'email', 'Email', 4, { possible_types: ['work', 'other'] }),
        field(F.companies.website, 'embed', 'website', 'Website', 5),
        field(F.companies.logo, 'image', 'logo', 'Logo', 6),
        field(F.companies.employees, 'number', 'employees', 'Employees', 7, { decimals: 0 }),
        field(F.companies.accountManager, 'contact', 'account-manager', 'Account manager', 8, { type: 'space_users', valid_types: ['user'] }),
      ],
    },
    {
      app_id: PODIO_DEMO.apps.deals, space_id: S.sales, url_label: 'deals', name: 'Deals', item_name: 'Deal', icon: '101.png', description: 'Opportunities in the sales pipeline.', token: 'sbx-app-token-8102', lastAppItemId: 0,
      fields: [
        field(F.deals.title, 'text', 'title', 'Deal name', 0, { size: 'small', format: 'plain' }, true),
        field(F.deals.company, 'app', 'company', 'Company', 1, { referenced_apps: [{ app_id: PODIO_DEMO.apps.companies, view_id: null }], multiple: false }),
        field(F.deals.amount, 'money', 'amount', 'Amount', 2, { allowed_currencies: ['EUR', 'USD'] }),
        field(F.deals.stage, 'category', 'stage', 'Stage', 3, { multiple: false, display: 'dropdown', options: [opt(401, 'Lead', 'F2F2F2'), opt(402, 'Qualified', 'D2E4EB'), opt(403, 'Proposal', 'F7F0C5'), opt(404, 'Won', 'DCEBD8'), opt(405, 'Lost', 'FFD5C2')] }, true),
        field(F.deals.products, 'category', 'products', 'Products', 4, { multiple: true, display: 'inline', options: [opt(411, 'Core platform', 'D2E4EB'), opt(412, 'Automations', 'E1D8ED'), opt(413, 'Analytics add-on', 'F7F0C5'), opt(414, 'Premium support', 'DCEBD8'), opt(415, 'Onboarding package', 'FFD5C2')] }),
        field(F.deals.closeDate, 'date', 'close-date', 'Expected close', 5, { calendar: true, end: 'disabled', time: 'disabled', color: 'DCEBD8' }),
        field(F.deals.probability, 'progress', 'probability', 'Probability', 6),
        field(F.deals.owner, 'contact', 'owner', 'Deal owner', 7, { type: 'space_users', valid_types: ['user'] }),
        field(F.deals.weightedValue, 'calculation', 'weighted-value', 'Weighted value', 8, { script: `@[Amount](field_${F.deals.amount}) * @[Probability](field_${F.deals.probability}) / 100`, return_type: 'number', decimals: 2, unit: null }),
        field(F.deals.notes, 'text', 'notes', 'Notes', 9, { size: 'large', format: 'html' }),
      ],
    },
    {
      app_id: PODIO_DEMO.apps.projects, space_id: S.operations, url_label: 'projects', name: 'Projects', item_name: 'Project', icon: '144.png', description: 'Delivery projects of won deals.', token: 'sbx-app-token-8201', lastAppItemId: 0,
      fields: [
        field(F.projects.name, 'text', 'project-name', 'Project name', 0, { size: 'small', format: 'plain' }, true),
        field(F.projects.deal, 'app', 'deal', 'Deal', 1, { referenced_apps: [{ app_id: PODIO_DEMO.apps.deals, view_id: null }], multiple: false }),
        field(F.projects.status, 'category', 'status', 'Status', 2, { multiple: false, display: 'inline', options: [opt(501, 'Planned', 'F2F2F2'), opt(502, 'In progress', 'D2E4EB'), opt(503, 'On hold', 'FFD5C2'), opt(504, 'Done', 'DCEBD8')] }),
        field(F.projects.timeline, 'date', 'timeline', 'Timeline', 3, { calendar: true, end: 'enabled', time: 'enabled', color: 'D2E4EB' }),
        field(F.projects.effort, 'duration', 'estimated-effort', 'Estimated effort', 4, { fields: ['days', 'hours', 'minutes'] }),
        field(F.projects.completion, 'progress', 'completion', 'Completion', 5),
        field(F.projects.team, 'contact', 'team', 'Team', 6, { type: 'space_users', valid_types: ['user'] }),
        field(F.projects.attachments, 'image', 'attachments', 'Photos', 7),
        field(F.projects.budget, 'money', 'budget', 'Budget', 8, { allowed_currencies: ['EUR'] }),
        field(F.projects.description, 'text', 'description', 'Description', 9, { size: 'large', format: 'markdown' }),
      ],
    },
  ];
}

const COMPANIES = [
  'Northwind Traders', 'Bluefin Logistics', 'Alpine Dairy', 'Cobalt Robotics', 'Helios Solar', 'Tidewater Foods', 'Quarry & Stone', 'Nimbus Analytics', 'Redwood Dental', 'Vertex Architects',
  'Lumen Optics', 'Harbor Freight Co.', 'Greenleaf Organics', 'Ironclad Security', 'Sapphire Hotels', 'Orbit Telecom', 'Maple Street Bakery', 'Falcon Aerospace', 'Summit Outdoor', 'Brightpath Education',
  'Copperline Media', 'Evergreen Clinics', 'Pioneer Insurance', 'Atlas Movers', 'Beacon Pharma', 'Cascade Water', 'Driftwood Furniture', 'Ember Foundry', 'Fjord Shipping', 'Granite Bank',
];
const PLACES = [
  { street_number: '6', street_name: 'Hessstraße', postal_code: '80799', city: 'Munich', state: 'Bavaria', country: 'Germany', lat: 48.15397, lng: 11.55993 },
  { street_number: '68', street_name: 'Friedrichstraße', postal_code: '10117', city: 'Berlin', state: 'Berlin', country: 'Germany', lat: 52.5112, lng: 13.3891 },
  { street_number: '221', street_name: 'Baker Street', postal_code: 'NW1 6XE', city: 'London', state: 'England', country: 'United Kingdom', lat: 51.5238, lng: -0.1586 },
  { street_number: '350', street_name: 'Fifth Avenue', postal_code: '10118', city: 'New York', state: 'NY', country: 'United States', lat: 40.7484, lng: -73.9857 },
  { street_number: '123', street_name: 'Keizersgracht', postal_code: '1015 CJ', city: 'Amsterdam', state: 'North Holland', country: 'Netherlands', lat: 52.3738, lng: 4.8846 },
  { street_number: '1', street_name: 'Rue de Rivoli', postal_code: '75001', city: 'Paris', state: 'Île-de-France', country: 'France', lat: 48.8559, lng: 2.3533 },
];
const DEAL_KINDS = ['Annual licence', 'Pilot', 'Expansion', 'Renewal', 'Analytics rollout', 'Support upgrade', 'Onboarding', 'Multi-site rollout'];
const NOTES = ['<p>Budget approved by the <b>CFO</b>.</p>', '<p>Needs a security questionnaire first.</p>', '<p>Competing offer from a local vendor.</p>', '<p>Decision expected after the board meeting.</p>', '<p>Champion: head of operations.</p>'];
const PROJECT_KINDS = ['Implementation', 'Data migration', 'Training', 'Integration', 'Go-live support'];
const COMMENTS = ['Sent the revised proposal this morning.', 'They asked for a discount on the support package.', 'Call scheduled for Thursday 10:00.', 'Legal has the contract now.', 'Pricing approved internally.', 'Customer wants to start next month.'];
const BASE = Date.UTC(2025, 6, 28, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const slug = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '');

function users(): PodioUser[] {
  const U = PODIO_DEMO.users;
  const S = PODIO_DEMO.spaces;
  const both = [S.sales, S.operations];
  return [
    { ...U.owner, role: 'admin', spaces: both, timezone: 'UTC', title: 'Managing Director', phone: '+49 89 1234 5601' },
    { ...U.ben, role: 'regular', spaces: both, timezone: 'UTC', title: 'Account Executive', phone: '+49 89 1234 5602' },
    { ...U.chloe, role: 'regular', spaces: [S.sales], timezone: 'UTC', title: 'Sales Manager', phone: '+49 89 1234 5603' },
    { ...U.david, role: 'admin', spaces: both, timezone: 'UTC', title: 'Head of Operations', phone: '+49 89 1234 5604' },
    { ...U.elena, role: 'regular', spaces: [S.operations], timezone: 'UTC', title: 'Project Manager', phone: '+49 89 1234 5605' },
    { ...U.member, role: 'regular', spaces: [S.sales], timezone: 'UTC', title: 'Sales Associate', phone: '+49 89 1234 5606' },
  ];
}

/** The seeded files' bytes by name, built once per process (never written into). */
const documents = new Map<string, Uint8Array>();
const document = (name: string, make: () => Buffer) => {
  let bytes = documents.get(name);
  if (!bytes) documents.set(name, (bytes = new Uint8Array(make())));
  return bytes;
};

/** A fresh state holding the demo org, its users and apps, items, comments, embeds and files; its dates moved by `shift` ms (kit/seed-day.ts). */
export function seedDemoState(shift = 0): PodioState {
  const state = emptyState();
  const D = PODIO_DEMO;
  state.org = { ...D.org, created_on: '2024-11-04 08:00:00' };
  state.spaces.set(D.spaces.sales, { space_id: D.spaces.sales, org_id: D.org.org_id, name: 'Sales', url_label: 'sales', description: 'Pipeline, customers and deals.', created_on: '2024-11-04 08:10:00' });
  state.spaces.set(D.spaces.operations, { space_id: D.spaces.operations, org_id: D.org.org_id, name: 'Operations', url_label: 'operations', description: 'Delivery projects.', created_on: '2024-11-04 08:20:00' });
  for (const u of users()) state.users.set(u.user_id, u);
  for (const a of apps()) state.apps.set(a.app_id, a);
  registerSandboxKeys(state, D.users.owner.user_id, D.users.member.user_id);
  state.nextId = { item: D.items.firstCompany, revision: 100001, file: D.firstIds.file, embed: D.firstIds.embed, comment: D.firstIds.comment, app: 8301, field: 9401 };

  const rnd = prng(7001);
  const people = [...state.users.values()];
  const sales = people.filter((u) => u.spaces.includes(D.spaces.sales));
  const ops = people.filter((u) => u.spaces.includes(D.spaces.operations));
  const app = (id: number) => state.apps.get(id)!;
  let at = BASE + shift;
  const tick = () => (at += rnd.int(6, 20) * HOUR);

  const upload = (name: string, mimetype: string, content: Uint8Array, by: number) => {
    const file_id = nextId(state, 'file');
    state.files.set(file_id, { file_id, name, mimetype, content, description: null, created_on: podioDateTime(at), uploaded_at: at, created_by: by, context: null });
    return file_id;
  };

  const companies: number[] = [];
  for (let n = 0; n < D.counts.companies; n++) {
    const base = COMPANIES[n % COMPANIES.length]!;
    const name = n < COMPANIES.length ? base : `${base} ${['Nord', 'Süd'][Math.floor(n / COMPANIES.length) - 1]}`;
    const place = rnd.pick(PLACES);
    const by = rnd.pick(sales);
    tick();
    const fields: Record<string, unknown> = {
      [F.companies.name]: name,
      [F.companies.industry]: rnd.pick(Object.values(O.industry)),
      [F.companies.address]: { value: `${place.street_name} ${place.street_number}, ${place.postal_code} ${place.city}, ${place.country}`, ...place },
      [F.companies.phone]: [{ type: 'work', value: `+49 30 ${rnd.int(1000, 9999)} ${rnd.int(100, 999)}` }],
      [F.companies.email]: [{ type: 'work', value: `info@${slug(name)}.example` }],
      [F.companies.employees]: rnd.int(8, 4000),
      [F.companies.accountManager]: [rnd.pick(sales).profile_id],
    };
    if (n % 2 === 0) {
      const embed_id = nextId(state, 'embed');
      state.embeds.set(embed_id, { embed_id, url: `https://www.${slug(name)}.example/`, title: `${name} — Home`, description: null, created_on: podioDateTime(at) });
      fields[F.companies.website] = { embed: embed_id };
    }
    if (n % 10 === 0) fields[F.companies.logo] = [upload(`${slug(name)}-logo.png`, 'image/png', document(`${slug(name)}-logo.png`, () => textImage([name])), by.user_id)];
    companies.push(createItem(state, app(D.apps.companies), by, { fields }, at).item_id);
  }

  const deals: { id: number; won: boolean }[] = [];
  for (let n = 0; n < D.counts.deals; n++) {
    const company = rnd.pick(companies);
    const by = rnd.pick(sales);
    const stage = rnd.pick(Object.values(O.stage));
    tick();
    const fields: Record<string, unknown> = {
      [F.deals.title]: `${rnd.pick(DEAL_KINDS)} — ${state.items.get(company)!.values.get(F.companies.name)![0]!.value as string}`,
      [F.deals.company]: company,
      [F.deals.amount]: { value: `${rnd.int(20, 900) * 50}.00`, currency: rnd.chance(0.8) ? 'EUR' : 'USD' },
      [F.deals.stage]: stage,
      [F.deals.products]: [...new Set([rnd.pick(Object.values(O.products)), rnd.pick(Object.values(O.products))])],
      [F.deals.closeDate]: { start_date: day(at + rnd.int(10, 120) * DAY) },
      [F.deals.probability]: stage === O.stage.won ? 100 : stage === O.stage.lost ? 0 : rnd.int(1, 9) * 10,
      [F.deals.owner]: by.profile_id,
    };
    if (rnd.chance(0.4)) fields[F.deals.notes] = rnd.pick(NOTES);
    // Some won deals were created at the proposal stage and won two days later: a second revision.
    const movedOn = stage === O.stage.won && rnd.chance(0.5);
    if (movedOn) fields[F.deals.stage] = O.stage.proposal;
    const item = createItem(state, app(D.apps.deals), by, { fields, tags: rnd.chance(0.3) ? ['priority'] : [] }, at);
    if (movedOn) updateItem(state, item, by, { fields: { [F.deals.stage]: O.stage.won } }, at + 2 * DAY);
    if (n % 40 === 0) {
      const title = item.values.get(F.deals.title)![0]!.value as string;
      const amount = fields[F.deals.amount] as { value: string; currency: string };
      const name = `proposal-${item.app_item_id}.pdf`;
      const pdf = document(name, () => tinyPdf([`Proposal: ${title}`, `Amount: ${amount.value} ${amount.currency}`, 'Valid for 30 days from the date of issue.', `Prepared by ${by.name}, Sandbox Co.`]));
      const file = upload(name, 'application/pdf', pdf, by.user_id);
      updateItem(state, item, by, { file_ids: [file] }, at + HOUR);
    }
    deals.push({ id: item.item_id, won: stage === O.stage.won });
  }

  const won = deals.filter((d) => d.won);
  for (let n = 0; n < D.counts.projects; n++) {
    const by = rnd.pick(ops);
    tick();
    const start = at + rnd.int(1, 30) * DAY;
    const status = rnd.pick(Object.values(O.status));
    const fields: Record<string, unknown> = {
      [F.projects.name]: `${rnd.pick(PROJECT_KINDS)} #${n + 1}`,
      [F.projects.deal]: (won.length ? rnd.pick(won) : rnd.pick(deals)).id,
      [F.projects.status]: status,
      [F.projects.timeline]: { start_date: day(start), start_time: '09:00:00', end_date: day(start + rnd.int(5, 60) * DAY), end_time: '17:00:00' },
      [F.projects.effort]: rnd.int(4, 160) * 3600,
      [F.projects.completion]: status === O.status.done ? 100 : status === O.status.planned ? 0 : rnd.int(1, 9) * 10,
      [F.projects.team]: [...new Set([rnd.pick(ops).profile_id, rnd.pick(ops).profile_id])],
      [F.projects.budget]: { value: `${rnd.int(5, 80) * 500}.00`, currency: 'EUR' },
    };
    if (rnd.chance(0.5)) fields[F.projects.description] = `Scope: **${rnd.pick(PROJECT_KINDS).toLowerCase()}** for the customer's team.`;
    if (n % 20 === 0) fields[F.projects.attachments] = [upload(`site-photo-${n + 1}.png`, 'image/png', document(`site-photo-${n + 1}.png`, () => tinyPng(32, [60 + n, 140, 90])), by.user_id)];
    // A statement of work, a budget and a kickoff deck: one real document of each Office kind.
    if (n % 20 === 10) fields[F.projects.attachments] = [projectDocument(n, fields[F.projects.name] as string, (fields[F.projects.budget] as { value: string }).value, by.user_id)];
    createItem(state, app(D.apps.projects), by, { fields }, at);
  }

  function projectDocument(n: number, project: string, budget: string, by: number): number {
    const kind = (n / 10 - 1) / 2;
    if (kind % 3 === 0) return upload(`statement-of-work-${n + 1}.docx`, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', document(`statement-of-work-${n + 1}.docx`, () => tinyDocx([`Statement of work: ${project}`, 'Phase 1: discovery workshops with the customer\'s team.', 'Phase 2: configuration and data migration.', 'Phase 3: training and go-live support.'])), by);
    if (kind % 3 === 1) return upload(`budget-${n + 1}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', document(`budget-${n + 1}.xlsx`, () => tinyXlsx('Budget', [['Item', 'EUR'], ['Consulting', Math.round(Number(budget) * 0.6)], ['Licences', Math.round(Number(budget) * 0.3)], ['Travel', Math.round(Number(budget) * 0.1)], ['Total', Number(budget)]])), by);
    return upload(`kickoff-${n + 1}.pptx`, 'application/vnd.openxmlformats-officedocument.presentationml.presentation', document(`kickoff-${n + 1}.pptx`, () => tinyPptx([{ title: `Kickoff: ${project}`, lines: ['Goals and scope', 'Team and roles'] }, { title: 'Timeline', lines: ['Discovery: two weeks', 'Go-live: week eight'] }])), by);
  }

  // Comments with mentions on the first deals, oldest first.
  for (let n = 0; n < 40; n++) {
    const deal = deals[n % 20]!.id;
    const by = rnd.pick(sales);
    const other = rnd.pick(sales.filter((u) => u !== by));
    at += rnd.int(1, 6) * HOUR;
    const value = rnd.chance(0.5) ? `@[${other.name}](user:${other.user_id}) ${rnd.pick(COMMENTS)}` : rnd.pick(COMMENTS);
    const comment_id = nextId(state, 'comment');
    const created_on = podioDateTime(at);
    state.comments.set(comment_id, { comment_id, ref: { type: 'item', id: deal }, value, external_id: null, created_on, created_by: by.user_id, embed_id: null, file_ids: [], versions: [{ revision_id: 1, value, created_on, embed_id: null }] });
  }
  seedViews(state, at); seedGrants(state, at);
  seedTasks(state, shift); seedConversations(state, shift);
  return state;
}
