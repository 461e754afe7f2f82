import type { Store, StoreConfig } from '../core/store';
import { MemoryStore } from './memory';

/** Builds the configured store; the DynamoDB client is loaded only when it is used. */
export async function createStore(config: StoreConfig): Promise<Store> {
  if (config.kind === 'memory') return new MemoryStore();
  if (!config.table) throw new Error('STORE=dynamodb needs TABLE_NAME');
  const [{ DynamoDBClient }, { DynamoStore }] = await Promise.all([import('@aws-sdk/client-dynamodb'), import('./dynamodb')]);
  const client = new DynamoDBClient({
    ...(config.region ? { region: config.region } : {}),
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  });
  return new DynamoStore(client, config.table);
}

export type { Store, StoreConfig } from '../core/store';
