import type { OAuthProvider } from '../core/platform-auth';

export type { AuthKind, OAuthProvider, PlatformAuth, VendorAccount } from '../core/platform-auth';

/** The provider's callback parameters from a callback query; undefined when one is missing or not allowed. */
export function callbackValues(provider: OAuthProvider, query: Record<string, string | undefined>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, allowed] of Object.entries(provider.callbackParams)) {
    const v = query[name];
    if (v === undefined || !allowed.test(v)) return undefined;
    out[name] = v;
  }
  return out;
}

/** Fills `{name}` placeholders of a vendor URL from checked callback values (callbackValues). */
export const fillUrl = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

/**
 * What the pages (connect, sign-in, consent, console) read of the platforms' descriptors: the
 * vendor's name and the toolsets. Passed in from the Identity or Runtime a page is rendered for
 * (Identity.platforms), never kept process-wide: two runtimes in one process (tests, the local
 * server beside a test's app) each show their own platforms. Display names only — nothing is
 * decided by them.
 */
export type PlatformNames = ReadonlyMap<string, { vendor: string; toolsets: Readonly<Record<string, { description: string; writes: boolean }>> }>;

/** A platform's toolsets by name, sorted (its descriptor's). */
export const toolsetsOf = (platforms: PlatformNames, platform: string): string[] => Object.keys(platforms.get(platform)?.toolsets ?? {}).sort();

/** What a toolset lets a host do, in one line, and whether any of its tools writes (the consent page). */
export const toolsetInfo = (platforms: PlatformNames, platform: string, toolset: string): { what: string; writes: boolean } => {
  const t = platforms.get(platform)?.toolsets[toolset];
  return { what: t?.description ?? toolset, writes: t?.writes ?? true };
};

/** The vendor's name of a platform (the platform's own name when no descriptor tells it). */
export const vendorName = (platforms: PlatformNames, platform: string): string => platforms.get(platform)?.vendor ?? platform;
