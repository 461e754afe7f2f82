/**
 * HubSpot's CRM data model as the twin holds it: the four standard object types, their default
 * property definitions and groups, the default pipelines and the association types between them.
 * Facts from HubSpot's OpenAPI documents (docs/vendors/hubspot.md) and its public CRM docs.
 */

export const OBJECT_TYPES = ['contacts', 'companies', 'deals', 'tickets'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** HubSpot's object type ids: the API accepts these or the names in every path. */
export const TYPE_IDS: Record<ObjectType, string> = { contacts: '0-1', companies: '0-2', deals: '0-3', tickets: '0-5' };

/** `deals`, `deal`, `0-3` (any case) → deals; undefined for anything else. */
export function objectTypeOf(raw: string): ObjectType | undefined {
  const s = raw.toLowerCase();
  for (const t of OBJECT_TYPES) if (s === t || s === t.slice(0, -1) || s === TYPE_IDS[t]) return t;
  if (s === 'company') return 'companies';
  return undefined;
}

export interface PropertyOption {
  label: string;
  value: string;
  description?: string;
  displayOrder: number;
  hidden: boolean;
}

export interface PropertyDef {
  name: string;
  label: string;
  type: 'string' | 'number' | 'date' | 'datetime' | 'enumeration' | 'bool' | 'phone_number';
  fieldType: string;
  groupName: string;
  description: string;
  options: PropertyOption[];
  displayOrder: number;
  hidden: boolean;
  formField: boolean;
  hasUniqueValue: boolean;
  hubspotDefined?: boolean;
  calculated: boolean;
  externalOptions: boolean;
  referencedObjectType?: string;
  modificationMetadata: { archivable: boolean; readOnlyDefinition: boolean; readOnlyValue: boolean; readOnlyOptions?: boolean };
  createdAt?: string;
  updatedAt?: string;
  archived: boolean;
}

export interface PropertyGroup {
  name: string;
  label: string;
  displayOrder: number;
  archived: boolean;
}

/** The owners of the sandbox portal: `hubspot_owner_id` takes their ids. */
export const OWNERS = [
  { id: '101', name: 'Jane Sandbox', email: 'jane@sandbox-crm.test' },
  { id: '102', name: 'Sam Member', email: 'sam@sandbox-crm.test' },
  { id: '103', name: 'Priya Patel', email: 'priya@sandbox-crm.test' },
] as const;

const opts = (pairs: readonly (readonly [string, string])[]): PropertyOption[] =>
  pairs.map(([value, label], i) => ({ label, value, displayOrder: i, hidden: false }));

type Spec = [name: string, label: string, type: PropertyDef['type'], fieldType: string, extra?: Partial<PropertyDef>];

const READ_ONLY: Partial<PropertyDef> = { calculated: true, modificationMetadata: { archivable: false, readOnlyDefinition: true, readOnlyValue: true } };

function define(group: string, specs: Spec[]): PropertyDef[] {
  return specs.map(([name, label, type, fieldType, extra], i) => ({
    name, label, type, fieldType, groupName: group, description: '', options: [], displayOrder: i, hidden: false, formField: type !== 'datetime',
    hasUniqueValue: false, hubspotDefined: true, calculated: false, externalOptions: false,
    modificationMetadata: { archivable: true, readOnlyDefinition: true, readOnlyValue: false },
    archived: false, ...extra,
  }));
}

const ownerProperty = (group: string): Spec => [
  'hubspot_owner_id', 'Owner', 'enumeration', 'select',
  { referencedObjectType: 'OWNER', externalOptions: true, options: opts(OWNERS.map((o) => [o.id, o.name] as const)), groupName: group },
];

/** Properties every object carries, HubSpot-maintained. */
function common(group: string, lastModified = 'hs_lastmodifieddate'): Spec[] {
  return [
    ['hs_object_id', 'Record ID', 'number', 'number', { ...READ_ONLY, formField: false }],
    ['createdate', 'Create Date', 'datetime', 'date', READ_ONLY],
    [lastModified, 'Last Modified Date', 'datetime', 'date', READ_ONLY],
    ownerProperty(group),
  ];
}

export const LIFECYCLE = opts([
  ['subscriber', 'Subscriber'], ['lead', 'Lead'], ['marketingqualifiedlead', 'Marketing Qualified Lead'], ['salesqualifiedlead', 'Sales Qualified Lead'],
  ['opportunity', 'Opportunity'], ['customer', 'Customer'], ['evangelist', 'Evangelist'], ['other', 'Other'],
]);

const LEAD_STATUS = opts([
  ['NEW', 'New'], ['OPEN', 'Open'], ['IN_PROGRESS', 'In Progress'], ['OPEN_DEAL', 'Open Deal'], ['UNQUALIFIED', 'Unqualified'],
  ['ATTEMPTED_TO_CONTACT', 'Attempted to Contact'], ['CONNECTED', 'Connected'], ['BAD_TIMING', 'Bad Timing'],
]);

export const INDUSTRIES = opts([
  ['COMPUTER_SOFTWARE', 'Computer Software'], ['FINANCIAL_SERVICES', 'Financial Services'], ['HOSPITAL_HEALTH_CARE', 'Hospital & Health Care'],
  ['RETAIL', 'Retail'], ['LOGISTICS_AND_SUPPLY_CHAIN', 'Logistics and Supply Chain'], ['MACHINERY', 'Machinery'], ['MARKETING_AND_ADVERTISING', 'Marketing and Advertising'],
]);

function defaults(): Record<ObjectType, PropertyDef[]> {
  return {
    contacts: define('contactinformation', [
      ['firstname', 'First Name', 'string', 'text'],
      ['lastname', 'Last Name', 'string', 'text'],
      ['email', 'Email', 'string', 'text', { hasUniqueValue: false }],
      ['phone', 'Phone Number', 'string', 'phonenumber'],
      ['company', 'Company Name', 'string', 'text'],
      ['jobtitle', 'Job Title', 'string', 'text'],
      ['website', 'Website URL', 'string', 'text'],
      ['city', 'City', 'string', 'text'],
      ['country', 'Country/Region', 'string', 'text'],
      ['lifecyclestage', 'Lifecycle Stage', 'enumeration', 'radio', { options: LIFECYCLE }],
      ['hs_lead_status', 'Lead Status', 'enumeration', 'radio', { options: LEAD_STATUS }],
      ['hs_email_optout', 'Unsubscribed from all email', 'bool', 'booleancheckbox', { options: opts([['true', 'Yes'], ['false', 'No']]) }],
      ...common('contactinformation', 'lastmodifieddate'),
    ]),
    companies: define('companyinformation', [
      ['name', 'Company name', 'string', 'text'],
      ['domain', 'Company Domain Name', 'string', 'text'],
      ['website', 'Website URL', 'string', 'text'],
      ['phone', 'Phone Number', 'string', 'phonenumber'],
      ['industry', 'Industry', 'enumeration', 'select', { options: INDUSTRIES }],
      ['city', 'City', 'string', 'text'],
      ['country', 'Country/Region', 'string', 'text'],
      ['numberofemployees', 'Number of Employees', 'number', 'number'],
      ['annualrevenue', 'Annual Revenue', 'number', 'number'],
      ['lifecyclestage', 'Lifecycle Stage', 'enumeration', 'radio', { options: LIFECYCLE }],
      ['type', 'Type', 'enumeration', 'select', { options: opts([['PROSPECT', 'Prospect'], ['PARTNER', 'Partner'], ['RESELLER', 'Reseller'], ['VENDOR', 'Vendor'], ['OTHER', 'Other']]) }],
      ['hs_num_open_deals', 'Number of open deals', 'number', 'number', READ_ONLY],
      ...common('companyinformation'),
    ]),
    deals: define('dealinformation', [
      ['dealname', 'Deal Name', 'string', 'text'],
      ['amount', 'Amount', 'number', 'number', { }],
      ['deal_currency_code', 'Currency', 'enumeration', 'select', { options: opts([['USD', 'US Dollar'], ['EUR', 'Euro'], ['GBP', 'British Pound']]) }],
      ['dealstage', 'Deal Stage', 'enumeration', 'radio', { externalOptions: true, referencedObjectType: 'PIPELINE_STAGE' }],
      ['pipeline', 'Pipeline', 'enumeration', 'select', { externalOptions: true, referencedObjectType: 'PIPELINE' }],
      ['closedate', 'Close Date', 'datetime', 'date'],
      ['dealtype', 'Deal Type', 'enumeration', 'radio', { options: opts([['newbusiness', 'New Business'], ['existingbusiness', 'Existing Business']]) }],
      ['description', 'Deal Description', 'string', 'textarea'],
      ['hs_priority', 'Priority', 'enumeration', 'select', { options: opts([['low', 'Low'], ['medium', 'Medium'], ['high', 'High']]) }],
      ['hs_deal_stage_probability', 'Deal probability', 'number', 'number', READ_ONLY],
      ['hs_is_closed', 'Is Deal Closed?', 'bool', 'booleancheckbox', { ...READ_ONLY, options: opts([['true', 'True'], ['false', 'False']]) }],
      ...common('dealinformation'),
    ]),
    tickets: define('ticketinformation', [
      ['subject', 'Ticket name', 'string', 'text'],
      ['content', 'Ticket description', 'string', 'textarea'],
      ['hs_pipeline', 'Pipeline', 'enumeration', 'select', { externalOptions: true, referencedObjectType: 'PIPELINE' }],
      ['hs_pipeline_stage', 'Ticket status', 'enumeration', 'select', { externalOptions: true, referencedObjectType: 'PIPELINE_STAGE' }],
      ['hs_ticket_priority', 'Priority', 'enumeration', 'select', { options: opts([['LOW', 'Low'], ['MEDIUM', 'Medium'], ['HIGH', 'High'], ['URGENT', 'Urgent']]) }],
      ['hs_ticket_category', 'Category', 'enumeration', 'checkbox', {
        options: opts([['PRODUCT_ISSUE', 'Product issue'], ['BILLING_ISSUE', 'Billing issue'], ['FEATURE_REQUEST', 'Feature request'], ['GENERAL_INQUIRY', 'General inquiry']]),
      }],
      ['source_type', 'Source', 'enumeration', 'select', { options: opts([['EMAIL', 'Email'], ['PHONE', 'Phone'], ['CHAT', 'Chat'], ['FORM', 'Form']]) }],
      ['closed_date', 'Close date', 'datetime', 'date'],
      ...common('ticketinformation'),
    ]),
  };
}

let defaultProperties: Record<ObjectType, readonly PropertyDef[]> | undefined;

/** The default property definitions of each type, built once per process (never mutated). */
export function defaultPropertyDefs(): Record<ObjectType, readonly PropertyDef[]> {
  return (defaultProperties ??= defaults());
}

export const GROUPS: Record<ObjectType, PropertyGroup[]> = {
  contacts: [{ name: 'contactinformation', label: 'Contact information', displayOrder: 0, archived: false }],
  companies: [{ name: 'companyinformation', label: 'Company information', displayOrder: 0, archived: false }],
  deals: [{ name: 'dealinformation', label: 'Deal information', displayOrder: 0, archived: false }],
  tickets: [{ name: 'ticketinformation', label: 'Ticket information', displayOrder: 0, archived: false }],
};

/** Properties a record of each type answers with when `properties` is not given (HubSpot's defaults). */
export const DEFAULT_RETURNED: Record<ObjectType, string[]> = {
  contacts: ['firstname', 'lastname', 'email'],
  companies: ['name', 'domain'],
  deals: ['dealname', 'amount', 'dealstage', 'pipeline', 'closedate'],
  tickets: ['subject', 'content', 'hs_pipeline', 'hs_pipeline_stage', 'hs_ticket_priority', 'hs_ticket_category'],
};

/** Added to every answer whatever was asked (HubSpot always returns these). */
export const ALWAYS_RETURNED: Record<ObjectType, string[]> = {
  contacts: ['createdate', 'lastmodifieddate', 'hs_object_id'],
  companies: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  deals: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  tickets: ['createdate', 'hs_lastmodifieddate', 'hs_object_id'],
};

/** Default searchable properties: what `query` of a search looks in (HubSpot's CRM search docs). */
export const SEARCHABLE: Record<ObjectType, string[]> = {
  contacts: ['firstname', 'lastname', 'email', 'phone', 'company', 'hs_object_id'],
  companies: ['name', 'domain', 'website', 'phone', 'hs_object_id'],
  deals: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype', 'hs_object_id'],
  tickets: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_priority', 'hs_object_id'],
};

/** The pipeline and stage properties of the types that have pipelines. */
export const PIPELINE_PROPS: Partial<Record<ObjectType, { pipeline: string; stage: string }>> = {
  deals: { pipeline: 'pipeline', stage: 'dealstage' },
  tickets: { pipeline: 'hs_pipeline', stage: 'hs_pipeline_stage' },
};

export interface Stage {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Pipeline {
  id: string;
  label: string;
  displayOrder: number;
  stages: Stage[];
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

// Default pipelines have createdAt = 0 (pipelines-v3.json).
const EPOCH = new Date(0).toISOString();
const stage = (id: string, label: string, i: number, metadata: Record<string, string>): Stage => ({ id, label, displayOrder: i, metadata, archived: false, createdAt: EPOCH, updatedAt: EPOCH });

export const PIPELINES: Record<'deals' | 'tickets', readonly Pipeline[]> = {
  deals: [
    {
      id: 'default', label: 'Sales Pipeline', displayOrder: 0, archived: false, createdAt: EPOCH, updatedAt: EPOCH,
      stages: [
        stage('appointmentscheduled', 'Appointment Scheduled', 0, { isClosed: 'false', probability: '0.2' }),
        stage('qualifiedtobuy', 'Qualified To Buy', 1, { isClosed: 'false', probability: '0.4' }),
        stage('presentationscheduled', 'Presentation Scheduled', 2, { isClosed: 'false', probability: '0.6' }),
        stage('decisionmakerboughtin', 'Decision Maker Bought-In', 3, { isClosed: 'false', probability: '0.8' }),
        stage('contractsent', 'Contract Sent', 4, { isClosed: 'false', probability: '0.9' }),
        stage('closedwon', 'Closed Won', 5, { isClosed: 'true', probability: '1.0' }),
        stage('closedlost', 'Closed Lost', 6, { isClosed: 'true', probability: '0.0' }),
      ],
    },
    {
      id: '6482715', label: 'Renewals', displayOrder: 1, archived: false, createdAt: '2025-03-04T09:00:00.000Z', updatedAt: '2025-03-04T09:00:00.000Z',
      stages: [
        stage('6482716', 'Renewal due', 0, { isClosed: 'false', probability: '0.5' }),
        stage('6482717', 'Proposal', 1, { isClosed: 'false', probability: '0.7' }),
        stage('6482718', 'Renewed', 2, { isClosed: 'true', probability: '1.0' }),
        stage('6482719', 'Churned', 3, { isClosed: 'true', probability: '0.0' }),
      ],
    },
  ],
  tickets: [
    {
      id: '0', label: 'Support Pipeline', displayOrder: 0, archived: false, createdAt: EPOCH, updatedAt: EPOCH,
      stages: [
        stage('1', 'New', 0, { ticketState: 'OPEN' }),
        stage('2', 'Waiting on contact', 1, { ticketState: 'OPEN' }),
        stage('3', 'Waiting on us', 2, { ticketState: 'OPEN' }),
        stage('4', 'Closed', 3, { ticketState: 'CLOSED' }),
      ],
    },
  ],
};

/** One HubSpot-defined association type from one object type to another. */
export interface AssocType {
  from: ObjectType;
  to: ObjectType;
  typeId: number;
  label: string | null;
  /** The type of the same link seen from the other side. */
  inverse: number;
  /** The type `PUT …/associations/default/…` uses for the pair. */
  isDefault: boolean;
}

const pair = (from: ObjectType, to: ObjectType, typeId: number, inverse: number, label: string | null, isDefault: boolean): AssocType[] => [
  { from, to, typeId, label, inverse, isDefault },
  { from: to, to: from, typeId: inverse, label, inverse: typeId, isDefault },
];

/** HubSpot-defined association types (HubSpot's "association type id values" table). */
export const ASSOCIATION_TYPES: readonly AssocType[] = [
  ...pair('contacts', 'companies', 279, 280, null, true),
  ...pair('contacts', 'companies', 1, 2, 'Primary', false),
  ...pair('deals', 'contacts', 3, 4, null, true),
  ...pair('deals', 'companies', 341, 342, null, true),
  ...pair('deals', 'companies', 5, 6, 'Primary', false),
  ...pair('tickets', 'contacts', 16, 15, null, true),
  ...pair('tickets', 'companies', 339, 340, null, true),
  ...pair('tickets', 'companies', 26, 25, 'Primary', false),
  ...pair('deals', 'tickets', 27, 28, null, true),
];

export function associationType(from: ObjectType, to: ObjectType, typeId: number): AssocType | undefined {
  return ASSOCIATION_TYPES.find((t) => t.from === from && t.to === to && t.typeId === typeId);
}

export function defaultAssociationType(from: ObjectType, to: ObjectType): AssocType | undefined {
  return ASSOCIATION_TYPES.find((t) => t.from === from && t.to === to && t.isDefault);
}

/** The primary type of a pair, when it has one (contact → company, deal → company, ticket → company). */
export function primaryAssociationType(from: ObjectType, to: ObjectType): AssocType | undefined {
  return ASSOCIATION_TYPES.find((t) => t.from === from && t.to === to && t.label === 'Primary');
}
