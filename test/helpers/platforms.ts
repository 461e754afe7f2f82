import { localPlatforms, type LocalPlatform } from '../../infra/local/platforms';

/**
 * The platforms every cross-platform test runs over (Lambda handler and bundle, HTTP protocol,
 * `osls package`): each implemented platform with what its read-only probe (from
 * infra/local/platforms.ts) must answer on a fresh twin. Adding a platform is one line here.
 */
const PROBE_ANSWERS: Record<string, { json: Record<string, unknown>; text: RegExp }> = {
  dbapp: { json: { total: 2 }, text: /^#1 Task management[^]*\n2 workspaces$/ },
  collab: { json: { orgs: [{ org_id: 7001, name: 'Sandbox Co' }] }, text: /^org #7001 Sandbox Co \(admin\): space #7101 Sales, space #7102 Operations\n1 organization/ },
  filebox: { json: { count: 4, folders: [{ Name: 'Olivia Bennett', FileCount: 3 }, { Id: 'favorites' }, { Id: 'allshared' }, { Id: 'connectors' }] }, text: /^fo\S+ Olivia Bennett\/ \(3 files\) \(alias home\)\nfavorites Favorites\/\nallshared Shared Folders\/\nconnectors Connectors\/\n4 top-level folders/ },
  crm: { json: { objectType: 'deals', pipelines: [{ id: 'default', label: 'Sales Pipeline' }, { id: '6482715', label: 'Renewals' }] }, text: /^pipeline default Sales Pipeline: appointmentscheduled Appointment Scheduled › [^]*\n2 deal pipelines$/ },
  realty: { json: { status: { code: 200, text: 'OK' }, results: { meta: { results: { resultCount: 1, resultsFound: 2000 } } } }, text: /^#[0-9a-f]{24} \d+ [^\n]+, Phoenix, AZ 85\d{3} \(Maricopa\) — [^]*\nshowing 1 of 2,000 properties — pass skip 1 with the same filters for the next page$/ },
};

export interface PlatformCase extends LocalPlatform {
  name: string;
  /** What the probe's JSON data contains (toMatchObject) and its text matches. */
  answer: { json: Record<string, unknown>; text: RegExp };
}

export const platformCases: PlatformCase[] = localPlatforms.map((p) => {
  const answer = PROBE_ANSWERS[p.platform.name];
  if (!answer) throw new Error(`test/helpers/platforms.ts: add the probe answer of platform "${p.platform.name}"`);
  return { ...p, name: p.platform.name, answer };
});
