import type { OAuthProvider } from '../core/platform-auth';

export type { AuthKind, OAuthProvider, PlatformAuth } from '../core/platform-auth';

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
