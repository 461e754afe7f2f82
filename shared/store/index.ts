import type { Store, StoreConfig } from '../core/store';
import { MemoryStore } from './memory';

/** Builds the configured store; the DynamoDB client is loaded only when it is used (shared/store/dynamo.ts). */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'memory') return new MemoryStore();
  if (!config.table) throw new Error('STORE=dynamodb needs TABLE_NAME');
  const { createDynamoStore } = await import('./dynamo');
  return createDynamoStore({ ...config, table: config.table });
}

export type { Store, StoreConfig } from '../core/store';
