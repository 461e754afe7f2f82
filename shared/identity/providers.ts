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
 * The vendors' names by platform, for the pages (connect, sign-in, consent, console): filled from
 * the platforms' descriptors when an identity is built (Identity's constructor). Display names
 * only — nothing is decided by them.
 */
const VENDOR_NAMES = new Map<string, { vendor: string; toolsets: Readonly<Record<string, { description: string; writes: boolean }>> }>();

export function knowVendors(platforms: Iterable<{ name: string; vendor: string; toolsets: Readonly<Record<string, { description: string; writes: boolean }>> }>): void {
  for (const p of platforms) VENDOR_NAMES.set(p.name, { vendor: p.vendor, toolsets: p.toolsets });
}

/** A platform's toolsets by name, sorted (its descriptor's). */
export const toolsetsOf = (platform: string): string[] => Object.keys(VENDOR_NAMES.get(platform)?.toolsets ?? {}).sort();

/** What a toolset lets a host do, in one line, and whether any of its tools writes (the consent page). */
export const toolsetInfo = (platform: string, toolset: string): { what: string; writes: boolean } => {
  const t = VENDOR_NAMES.get(platform)?.toolsets[toolset];
  return { what: t?.description ?? toolset, writes: t?.writes ?? true };
};

/** The vendor's name of a platform (the platform's own name when no descriptor told it). */
export const vendorName = (platform: string): string => VENDOR_NAMES.get(platform)?.vendor ?? platform;

/** Every platform an identity was built with, in the order they were told. */
export const knownPlatforms = (): string[] => [...VENDOR_NAMES.keys()];
