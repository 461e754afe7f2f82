import { platforms } from '../functions/platforms';
import { createRegistry } from '../shared/core/registry';
import { catalog } from '../shared/catalog/catalog';
import { trainedModelDocument } from '../shared/catalog/search-data';

/**
 * Trains the tool-search model of every platform once, into its file cache (shared/catalog/search-data.ts),
 * before the test files start: on a fresh clone no worker then trains it inside a test's time limit.
 */
export default async function setup(): Promise<void> {
  const registry = createRegistry(platforms);
  await trainedModelDocument(registry, await catalog(registry));
}
