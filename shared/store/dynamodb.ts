import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { counterResult, windowStart, type Clock, type CounterResult, type Store } from './store';

/**
 * Single-table DynamoDB store: `pk` (S) is the key, `expires_at` (N, epoch seconds) the TTL
 * attribute, `v` a JSON string for cache values, `n` the counter. DynamoDB's TTL deletes lazily,
 * so reads check expiry themselves, against `expires_ms` (N, epoch ms: the exact expiry, which
 * whole seconds would round) and else `expires_at`.
 */
export class DynamoStore implements Store {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
    private readonly now: Clock = Date.now,
  ) {}

  /**
   * A harmless read of a key that is never written: the SDK resolves its credentials, loads its
   * lazy parts and opens its keep-alive connection now (at init) instead of in the first call.
   */
  async warm(): Promise<void> {
    await this.client.send(new GetItemCommand({ TableName: this.table, Key: { pk: { S: '#warm-up' } }, ProjectionExpression: 'pk' }));
  }

  async get<T>(key: string): Promise<T | undefined> {
    const out = await this.client.send(
      new GetItemCommand({ TableName: this.table, Key: { pk: { S: key } }, ConsistentRead: true }),
    );
    const item = out.Item;
    if (!item?.v?.S || !item.expires_at?.N) return undefined;
    const expiresMs = item.expires_ms?.N ? Number(item.expires_ms.N) : Number(item.expires_at.N) * 1000;
    if (expiresMs <= this.now()) return undefined;
    return JSON.parse(item.v.S) as T;
  }

  async put(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    await this.client.send(new PutItemCommand({ TableName: this.table, Item: this.item(key, value, ttlSeconds) }));
  }

  /** A value item: JSON in `v`, expiry in `expires_at` (TTL, seconds) and `expires_ms` (exact). */
  private item(key: string, value: unknown, ttlSeconds: number) {
    const expiresMs = this.now() + ttlSeconds * 1000;
    return {
      pk: { S: key },
      v: { S: JSON.stringify(value) },
      expires_at: { N: String(Math.ceil(expiresMs / 1000)) },
      expires_ms: { N: String(expiresMs) },
    };
  }

  async putIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    const now = this.now();
    try {
      // One conditional write: no item, or one whose exact expiry has passed (TTL deletes lazily).
      await this.client.send(
        new PutItemCommand({
          TableName: this.table,
          Item: this.item(key, value, ttlSeconds),
          ConditionExpression: 'attribute_not_exists(pk) OR expires_ms <= :now OR (attribute_not_exists(expires_ms) AND expires_at <= :nowSeconds)',
          ExpressionAttributeValues: { ':now': { N: String(now) }, ':nowSeconds': { N: String(Math.floor(now / 1000)) } },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteItemCommand({ TableName: this.table, Key: { pk: { S: key } } }));
  }

  async increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult> {
    const now = this.now();
    const start = windowStart(now, windowSeconds);
    // One item per window: a new window starts from zero without a reset write.
    const pk = `${key}#${start}`;
    try {
      const out = await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: { pk: { S: pk } },
          UpdateExpression: 'ADD n :one SET expires_at = if_not_exists(expires_at, :exp)',
          ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':limit': { N: String(limit) },
            ':exp': { N: String(start + windowSeconds + 60) },
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return counterResult(true, Number(out.Attributes?.n?.N ?? 1), limit, now, windowSeconds);
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return counterResult(false, limit, limit, now, windowSeconds);
      throw err;
    }
  }
}
