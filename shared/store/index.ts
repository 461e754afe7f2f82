import type { Store } from './store';
import { MemoryStore } from './memory';

export interface StoreConfig {
  kind: 'memory' | 'dynamodb';
  table?: string;
  endpoint?: string;
  region?: string;
}

/** Builds the configured store; the DynamoDB client is loaded only when it is used (shared/store/dynamo.ts). */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'memory') return new MemoryStore();
  if (!config.table) throw new Error('STORE=dynamodb needs TABLE_NAME');
  const { createDynamoStore } = await import('./dynamo');
  return createDynamoStore({ ...config, table: config.table });
}

export type { Store } from './store';
