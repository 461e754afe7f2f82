/**
 * The catalog entries built at build time (infra/build.ts runs platformCatalog on the bundle's
 * platform and puts them here, gzipped, in place of this module), so a container's first tool
 * list costs an unzip instead of loading every tool module and converting its zod schema. From
 * source (tests, local server) there is none, and the catalog is built at the first list.
 */
export const PREBUILT_CATALOG: string | undefined = undefined;
