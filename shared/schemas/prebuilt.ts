/**
 * What infra/build.ts builds for the bundle and puts here in place of this module, each compressed
 * and base64-encoded (shared/schemas/catalog.ts): the catalog entries of the bundle's platforms (platformCatalog), so a
 * container's first tool list costs an unzip instead of loading every tool module and converting
 * its zod schema; and the JSON of each endpoint's default MCP tools/list result (mcp-server.ts,
 * toolsListResult), which a lone tools/list is answered with as is. From source (tests, local
 * server) there is neither, and both are built at the first list.
 */
export const PREBUILT_CATALOG: string | undefined = undefined;
export const PREBUILT_MCP_LISTS: string | undefined = undefined;
