/**
 * What infra/build.ts builds for the bundle and puts here in place of this module, compressed and
 * base64-encoded (shared/schemas/catalog.ts, packPrebuilt): the catalog entries of the bundle's
 * platforms, so a container's first tool list costs an unpack instead of loading every tool module
 * and converting its zod schema; and the JSON of each of its MCP endpoints' default tools/list
 * result (shared/http/mcp-server.ts, toolsListResult), which a lone tools/list is answered with as
 * is. From source (tests, local server) there is none, and both are built at the first list.
 */
export const PREBUILT: string | undefined = undefined;
/** The tools/list JSON texts as they are (not in PREBUILT), where the bundle stays within its size budget with them. */
export const PREBUILT_LISTS: Record<string, string> | undefined = undefined;
