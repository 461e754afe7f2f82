import type { HubSpotObjectType } from '../wire';

/**
 * What differs between the four object types' tools: names, the id parameter, defaults and the
 * fields a one-line summary shows. Everything else (validation, search, rendering) is one piece
 * of code for all of them.
 */
export interface ObjectKind {
  type: HubSpotObjectType;
  /** `deal`: tool names (createDeal), id parameter (deal_id), result key (dealId). */
  singular: string;
  Singular: string;
  /** crm_ names a create must set, or one of which (anyOf) it must. */
  required: { all?: string[]; anyOf?: string[] };
  /** The pipeline and stage properties (crm_ names), for the types that have pipelines. */
  pipeline?: { pipeline: string; stage: string };
  /** Properties a search returns when none are asked for (crm_ names). */
  defaultProperties: string[];
  /** Properties a get returns besides return_properties, when they differ from a search's (the spec's default properties of the type). */
  readProperties?: string[];
  /** searchX: default and maximum `limit` (docs/spec.md#limits). */
  searchLimit: number;
  /** What a record's line starts with after its id. */
  title(p: Record<string, string | null>): string;
  /** A realistic record of the type (crm_ names), for the tools' examples. */
  example: { id: string; values: Record<string, string>; properties: Record<string, string> };
}

export const DEALS: ObjectKind = {
  type: 'deals', singular: 'deal', Singular: 'Deal',
  required: { all: ['dealname'] },
  pipeline: { pipeline: 'pipeline', stage: 'dealstage' },
  defaultProperties: ['dealname', 'amount', 'deal_currency_code', 'dealstage', 'pipeline', 'closedate'],
  readProperties: ['dealname', 'amount', 'deal_currency_code', 'dealstage', 'pipeline', 'closedate', 'crm_lastmodifieddate'],
  searchLimit: 20,
  title: (p) => p.dealname ?? '(no name)',
  example: {
    id: '1361',
    values: { dealname: 'Acme renewal', amount: '12000', dealstage: 'Proposal', pipeline: 'Renewals', closedate: '2026-12-15' },
    properties: { dealname: 'Acme renewal', amount: '12000', deal_currency_code: 'USD', dealstage: '6482717', pipeline: '6482715', closedate: '2026-12-15T00:00:00.000Z' },
  },
};

export const CONTACTS: ObjectKind = {
  type: 'contacts', singular: 'contact', Singular: 'Contact',
  // HubSpot's UI asks for one of these; a record with none of them is invisible in lists.
  required: { anyOf: ['email', 'firstname', 'lastname'] },
  defaultProperties: ['firstname', 'lastname', 'email'],
  readProperties: ['firstname', 'lastname', 'email', 'phone', 'company', 'lifecyclestage'],
  searchLimit: 10,
  title: (p) => [[p.firstname, p.lastname].filter(Boolean).join(' '), p.email ? `<${p.email}>` : ''].filter(Boolean).join(' ') || '(no name)',
  example: {
    id: '1061',
    values: { firstname: 'Ada', lastname: 'Alvarez', email: 'ada.alvarez@acmelabs.example', company: 'Acme Labs', crm_lead_status: 'Open' },
    properties: { firstname: 'Ada', lastname: 'Alvarez', email: 'ada.alvarez@acmelabs.example' },
  },
};

export const COMPANIES: ObjectKind = {
  type: 'companies', singular: 'company', Singular: 'Company',
  required: { all: ['name'] },
  defaultProperties: ['name', 'domain', 'industry', 'city'],
  searchLimit: 10,
  title: (p) => [p.name ?? '(no name)', p.domain ? `(${p.domain})` : ''].filter(Boolean).join(' '),
  example: {
    id: '1001',
    values: { name: 'Acme Labs', domain: 'acmelabs.example', industry: 'Computer Software' },
    properties: { name: 'Acme Labs', domain: 'acmelabs.example', industry: 'COMPUTER_SOFTWARE', city: 'Boston' },
  },
};

export const TICKETS: ObjectKind = {
  type: 'tickets', singular: 'ticket', Singular: 'Ticket',
  required: { all: ['subject'] },
  pipeline: { pipeline: 'crm_pipeline', stage: 'crm_pipeline_stage' },
  defaultProperties: ['subject', 'crm_pipeline', 'crm_pipeline_stage', 'crm_ticket_priority', 'crm_ticket_category'],
  searchLimit: 10,
  title: (p) => p.subject ?? '(no subject)',
  example: {
    id: '1541',
    values: { subject: 'Cannot log in', crm_ticket_priority: 'HIGH', crm_pipeline_stage: 'New' },
    properties: { subject: 'Cannot log in', crm_pipeline: '0', crm_pipeline_stage: '1', crm_ticket_priority: 'HIGH' },
  },
};

/** What a get returns by default. */
export const readDefaults = (kind: ObjectKind): string[] => kind.readProperties ?? kind.defaultProperties;

export const KINDS: Record<HubSpotObjectType, ObjectKind> = { deals: DEALS, contacts: CONTACTS, companies: COMPANIES, tickets: TICKETS };
