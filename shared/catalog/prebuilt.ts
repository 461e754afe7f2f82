/**
 * Where a built bundle's build-time documents are (infra/build.ts puts its own module here in
 * place of this one): data files beside handler.js, one per document, named by key in `files`.
 * Each is read (one file read, no decompression) when first needed: the catalog entries of the
 * bundle's platforms, the JSON of its MCP endpoints' default tools/list results, its OpenAPI
 * document and its tool lists in each provider's shape (shared/catalog/catalog.ts,
 * prebuiltDocument). From source (tests, local server) there are none: all are built at runtime.
 */
export interface PrebuiltFiles {
  /** The folder of the data files. */
  dir: string;
  /** File name (inside `dir`) by document key (shared/catalog/catalog.ts, documentKeys). */
  files: Record<string, string>;
}

export const PREBUILT: PrebuiltFiles | undefined = undefined;
