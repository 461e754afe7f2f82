import { ToolError } from '../core/errors';
import { countCall, hashKey } from '../core/admission';
import { catalogFilter } from '../identity';
import type { Runtime } from '../core/runtime';
import { applyFilter, documentKeys, platformCatalog, prebuiltDocument, type CatalogEntry, type CatalogFilter } from './catalog';
import type { Profile } from './profiles';
import { PROVIDERS, providerTools, type Provider } from './providers';
import type { Platform } from '../core/tool';

/** The platform of a path (NOT_FOUND when unknown) or of a query parameter (INVALID_PARAMETER naming it). */
export function knownPlatform(rt: Runtime, name: string, queryParameter?: string): Platform {
  const platform = rt.registry.platforms.get(name);
  if (platform) return platform;
  const known = [...rt.registry.platforms.keys()].join(', ');
  if (queryParameter) throw new ToolError('INVALID_PARAMETER', `Query "${queryParameter}": unknown platform "${name}"; platforms here: ${known}.`, { parameter: queryParameter, expected: `one of ${known}` });
  throw new ToolError('NOT_FOUND', `Unknown platform "${name}". Platforms served here: ${known}.`, { platform: name });
}

/** A provider name from `?schema=`, or INVALID_PARAMETER naming the choices. */
export function parseProvider(raw: string | undefined): Provider | undefined {
  if (raw === undefined) return undefined;
  if ((PROVIDERS as readonly string[]).includes(raw)) return raw as Provider;
  throw new ToolError('INVALID_PARAMETER', `Query "schema" must be one of ${PROVIDERS.join(', ')}; got "${raw}".`, { parameter: 'schema', expected: `one of ${PROVIDERS.join(', ')}` });
}

/**
 * A platform's tool list for a key: counted like a call (rate limit, headers), then read from the
 * catalog built once per container (shared/catalog/catalog.ts), filtered, and shaped for a
 * provider when one is asked for. The caller has checked the key.
 */
export async function listTools(
  rt: Runtime,
  request: { platform: string; key: string; filter: CatalogFilter; provider?: Provider | undefined; profile?: Profile },
  headers: Record<string, string>,
): Promise<unknown> {
  const platform = knownPlatform(rt, request.platform);
  await countCall(rt, platform.name, hashKey(request.key), headers);
  // A service key's policy (shared/identity): the list shows only what the key may call.
  const allow = await catalogFilter(rt, request.key);
  const whole = !request.filter.toolsets && !request.filter.readOnly && !allow;
  // The list the build made for this shape (infra/build.ts): no filter, no tool budget.
  if (whole && (request.profile === undefined || request.profile.kind === 'deferred')) {
    const built = prebuiltDocument(documentKeys.toolList(platform.name, request.provider, request.profile?.kind));
    if (built !== undefined) return JSON.parse(built) as unknown;
  }
  const entries = applyFilter(await platformCatalog(rt.registry, platform), request.filter).filter(allow ?? (() => true));
  return toolListDocument(platform, entries, request.provider, request.profile);
}

/** GET /v1/tools/{platform}'s data for these entries: plain, or in a provider's shape (with a profile). */
export function toolListDocument(platform: Platform, entries: readonly CatalogEntry[], provider?: Provider, profile?: Profile): unknown {
  if (provider) {
    // ?profile= / ?max_tools=: Anthropic's defer_loading, OpenAI's namespaces with tool_search (shared/catalog/profiles.ts).
    const opts = { ...(profile ? { profile } : {}), mainGroups: { [platform.name]: platform.mainGroup }, vendors: { [platform.name]: platform.vendor } };
    return { platform: platform.name, schema: provider, ...(profile ? { profile } : {}), tools: providerTools(provider, entries, opts) };
  }
  return {
    platform: platform.name,
    tools: entries.map((e) => ({
      name: e.name,
      description: e.description,
      annotations: e.annotations,
      input_schema: e.inputSchema,
      ...(e.outputSchema ? { output_schema: e.outputSchema } : {}),
      ...(e.group ? { group: e.group } : {}),
    })),
  };
}
