import { platforms as registered } from '../../functions/platforms';
import { createHubSpotTwin, SANDBOX_KEYS as HUBSPOT_KEYS } from '../twins/hubspot';
import type { Platform } from '../../shared/core/tool';
import type { TwinOptions } from '../twins/kit';
import { createPodioTwin, SANDBOX_KEYS as PODIO_KEYS } from '../twins/podio';
import { createShareFileTwin, SANDBOX_KEYS as SHAREFILE_KEYS } from '../twins/sharefile';
import { createTapeTwin, SANDBOX_KEYS as TAPE_KEYS } from '../twins/tape';
import { createBatchDataTwin, SANDBOX_KEYS as BATCHDATA_KEYS } from '../twins/batchdata';

/** What every sandbox twin offers the local server and the tests. */
export interface Twin {
  /** The twin's HTTP app (Hono), mounted under the platform's `mount` path by the local server. */
  app: { fetch(request: Request, ...rest: any[]): Response | Promise<Response> };
  /** In-process fetch into the twin: what a platform client uses in place of the network. */
  fetch: typeof fetch;
}

/** Options every twin factory understands (the kit's TwinOptions); each twin takes its own on top (credits, …). */
export type CommonTwinOptions = Pick<TwinOptions, 'hookTargets' | 'latencyMs' | 'publicBase'>;

/** One implemented platform as the local server and the tests run it: the Lambda's tools beside its vendor's twin. */
export interface LocalPlatform<O extends CommonTwinOptions = any, T extends Twin = Twin> {
  platform: Platform<any>;
  /** A fresh twin of the platform's vendor. */
  twin: (options?: O) => T;
  /** Where the local server mounts the twin: `/twins/<vendor>`. */
  mount: string;
  /** The twin's sandbox keys: the demo owner (printed by `npm start`) and a plain member. */
  keys: { owner: string; member: string };
  /** A read-only call that works on a fresh twin: the startup message's example and the per-platform test probe. */
  probe: { tool: string; params: Record<string, unknown> };
  /** A GET on the twin itself (path under `mount`), for a look at the vendor side with the sandbox key. */
  look: string;
  /** The vendor's Authorization scheme for that look (Tape: Bearer; Podio: OAuth2). */
  scheme: string;
  /** The twin's options for a budget of `n` per its vendor's window (TWIN_CREDITS), and that window in words. */
  budget: { options: (n: number) => Partial<O>; per: string };
}

/** A twin with a `rateLimit` of calls per window: the budget keeps the vendor's window. */
const calls = (windowMs: number, per: string) => ({ options: (n: number) => ({ rateLimit: { limit: n, windowMs } }), per });

/** What the local server runs beside a platform: its vendor's twin and how to try it. */
export type LocalTwin = Omit<LocalPlatform, 'platform'>;

/** Each platform's twin by platform name; a platform of functions/platforms.ts without one here fails at start. */
const TWINS: Readonly<Record<string, LocalTwin>> = {
  dbapp: { twin: createTapeTwin, mount: '/twins/tape', keys: TAPE_KEYS, probe: { tool: 'listWorkspaces', params: {} }, look: '/v1/workspace/org', scheme: 'Bearer', budget: { options: (n: number) => ({ credits: n }), per: 'credits per minute (a request costs 10)' } },
  collab: { twin: createPodioTwin, mount: '/twins/podio', keys: PODIO_KEYS, probe: { tool: 'getOrganizations', params: {} }, look: '/org/', scheme: 'OAuth2', budget: calls(3_600_000, 'calls per hour') },
  filebox: { twin: createShareFileTwin, mount: '/twins/sharefile', keys: SHAREFILE_KEYS, probe: { tool: 'getTopLevelFolders', params: {} }, look: '/sf/v3/Items', scheme: 'Bearer', budget: calls(60_000, 'calls per minute') },
  crm: { twin: createHubSpotTwin, mount: '/twins/hubspot', keys: HUBSPOT_KEYS, probe: { tool: 'getPipelines', params: {} }, look: '/crm/v3/pipelines/deals', scheme: 'Bearer', budget: calls(10_000, 'calls per 10 seconds') },
  realty: { twin: createBatchDataTwin, mount: '/twins/batchdata', keys: BATCHDATA_KEYS, probe: { tool: 'searchProperties', params: { query: 'Phoenix, AZ', take: 1 } }, look: '/api/v1/sandbox', scheme: 'Bearer', budget: calls(60_000, 'calls per minute') },
};

/** Each platform beside its twin, in the registry's order (functions/platforms.ts). */
export function withTwins(list: readonly Platform<any>[], twins: Readonly<Record<string, LocalTwin>> = TWINS): LocalPlatform[] {
  return list.map((platform) => {
    const twin = Object.hasOwn(twins, platform.name) ? twins[platform.name] : undefined;
    if (!twin) throw new Error(`infra/local/platforms.ts: platform "${platform.name}" has no twin; add its entry to TWINS`);
    return { platform, ...twin };
  });
}

/** Every implemented platform with its twin. */
export const localPlatforms: readonly LocalPlatform[] = withTwins(registered);

/** The local twins' knobs, from the environment (README "Configuration"): absent means the vendor's own. */
export interface TwinKnobs {
  /** TWIN_LATENCY_MS: every twin answers after this many ms (default 0). */
  latencyMs?: number;
  /** TWIN_CREDITS: every twin's rate budget, in its vendor's unit and window (Tape: credits per minute). */
  credits?: number;
}

function wholeNumber(env: Record<string, string | undefined>, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  return n;
}

export function twinKnobs(env: Record<string, string | undefined>): TwinKnobs {
  const latencyMs = wholeNumber(env, 'TWIN_LATENCY_MS', 0);
  const credits = wholeNumber(env, 'TWIN_CREDITS', 1);
  return { ...(latencyMs ? { latencyMs } : {}), ...(credits !== undefined ? { credits } : {}) };
}

/** The options of a platform's twin for these knobs. */
export function knobOptions(p: LocalPlatform, knobs: TwinKnobs): CommonTwinOptions {
  return { ...(knobs.latencyMs ? { latencyMs: knobs.latencyMs } : {}), ...(knobs.credits !== undefined ? p.budget.options(knobs.credits) : {}) };
}

/** The platforms alone, for the runtime. */
export const platforms: readonly Platform<any>[] = registered;

/** The entry of one platform by name. */
export function localPlatform(name: string): LocalPlatform {
  const found = localPlatforms.find((p) => p.platform.name === name);
  if (!found) throw new Error(`No local platform "${name}"; known: ${localPlatforms.map((p) => p.platform.name).join(', ')}`);
  return found;
}
