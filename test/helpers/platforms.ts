import { localPlatforms, type LocalPlatform } from '../../infra/local/platforms';

/**
 * The platforms every cross-platform test runs over (Lambda handler and bundle, HTTP protocol,
 * `osls package`): each implemented platform with what its read-only probe (from
 * infra/local/platforms.ts) must answer on a fresh twin. Adding a platform is one line here.
 */
const PROBE_ANSWERS: Record<string, { json: Record<string, unknown>; text: RegExp }> = {
  dbapp: { json: { total: 2 }, text: /^#1 Task management[^]*\n2 workspaces$/ },
  collab: { json: { orgs: [{ org_id: 7001, name: 'Sandbox Co' }] }, text: /^org #7001 Sandbox Co \(admin\): space #7101 Sales, space #7102 Operations\n1 organization/ },
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
