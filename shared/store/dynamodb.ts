import {
  BatchGetItemCommand,
  ConditionalCheckFailedException,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import { admitted, refused, type Clock, type CounterResult, type Store } from '../core/store';

/**
 * A key's ticket item takes every call's write; one item takes at most 1,000 writes a second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html),
 * and a refused call writes it twice. A limit allowing more than this many calls a second is
 * split over shards, each a counter of its own (increment).
 */
const SHARD_ABOVE_PER_SECOND = 400;

/** Attempts of a claim-and-event transaction that conflicted with another, and the first pause (doubling, jittered). */
const CONFLICT_ATTEMPTS = 5;
const CONFLICT_PAUSE_MS = 20;

/**
 * Single-table DynamoDB store: `pk` (S) is the key, `expires_at` (N, epoch seconds) the TTL
 * attribute, `v` a JSON string for cache values, `n` the counter. DynamoDB's TTL deletes lazily,
 * so reads check expiry themselves, against `expires_ms` (N, epoch ms: the exact expiry, which
 * whole seconds would round) and else `expires_at`. Rate-limit counters use `n`, `ts` and `c<window>`
 * (see increment).
 */
export class DynamoStore implements Store {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
    private readonly now: Clock = Date.now,
    /** Above this many admissions a second a key's counter is sharded (shardsFor); tests set it low. */
    private readonly shardAbovePerSecond = SHARD_ABOVE_PER_SECOND,
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
    return out.Item ? this.live<T>(out.Item) : undefined;
  }

  /** A value item's value, unless it has expired (TTL deletes lazily). */
  private live<T>(item: Record<string, AttributeValue>): T | undefined {
    if (!item.v?.S || !item.expires_at?.N) return undefined;
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

  /** `ADD n :by`: atomic; the item's TTL moves on with every add. */
  async add(key: string, by: number, ttlSeconds: number): Promise<number> {
    const out = await this.client.send(
      new UpdateItemCommand({
        TableName: this.table,
        Key: { pk: { S: key } },
        UpdateExpression: 'ADD n :by SET expires_at = :exp',
        ExpressionAttributeValues: { ':by': { N: String(by) }, ':exp': { N: String(Math.ceil(this.now() / 1000) + ttlSeconds) } },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.n?.N ?? by);
  }

  /** `n` as `add` keeps it (ADD continues an item TTL has not deleted yet, so this reads it the same way). */
  async count(key: string): Promise<number> {
    const out = await this.client.send(new GetItemCommand({ TableName: this.table, Key: { pk: { S: key } }, ConsistentRead: true, ProjectionExpression: 'n' }));
    return Number(out.Item?.n?.N ?? 0);
  }

  /**
   * One TransactWriteItems: the claim (conditional, as putIfAbsent) and its companion item. A
   * transaction cancelled because another one held an item (reason TransactionConflict, as racing
   * copies of one event do) wrote nothing, so it is sent again, a few times, after a short pause:
   * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html
   */
  async putPairIfAbsent(key: string, value: unknown, ttlSeconds: number, pair: { key: string; value: unknown }): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const now = this.now();
      try {
        await this.client.send(
          new TransactWriteItemsCommand({
            TransactItems: [
              {
                Put: {
                  TableName: this.table,
                  Item: this.item(key, value, ttlSeconds),
                  ConditionExpression: 'attribute_not_exists(pk) OR expires_ms <= :now',
                  ExpressionAttributeValues: { ':now': { N: String(now) } },
                },
              },
              { Put: { TableName: this.table, Item: this.item(pair.key, pair.value, ttlSeconds) } },
            ],
          }),
        );
        return true;
      } catch (err) {
        if (!(err instanceof TransactionCanceledException)) throw err;
        const reasons = err.CancellationReasons?.map((r) => r.Code) ?? [];
        if (reasons[0] === 'ConditionalCheckFailed') return false;
        if (!reasons.includes('TransactionConflict') || attempt >= CONFLICT_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, CONFLICT_PAUSE_MS * 2 ** (attempt - 1) * (0.5 + Math.random())));
      }
    }
  }

  /** BatchGetItem, 100 keys a request, strongly consistent; unprocessed keys are asked again. */
  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    const found = new Map<string, T>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 100) {
      let ask: Record<string, { S: string }>[] = unique.slice(i, i + 100).map((k) => ({ pk: { S: k } }));
      for (let round = 0; ask.length > 0; round++) {
        if (round > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** round)));
        const out = await this.client.send(new BatchGetItemCommand({ RequestItems: { [this.table]: { Keys: ask, ConsistentRead: true } } }));
        for (const item of out.Responses?.[this.table] ?? []) {
          const value = this.live<T>(item);
          if (value !== undefined) found.set(item.pk!.S!, value);
        }
        ask = (out.UnprocessedKeys?.[this.table]?.Keys ?? []) as Record<string, { S: string }>[];
      }
    }
    return keys.map((k) => found.get(k));
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteItemCommand({ TableName: this.table, Key: { pk: { S: key } } }));
  }

  /**
   * A sliding log in `limit` slots, each one item holding the time (`ts`, epoch ms) of the call
   * admitted in it. A call takes a ticket n from an atomic `ADD` on the key's ticket item, then
   * claims slot n mod limit with a conditional write that succeeds only if the slot is empty or
   * its call is a whole window old. Two calls admitted within one window never share a slot, so no
   * span of the window admits more than `limit`, whatever the tickets; of N concurrent calls on
   * free slots exactly min(N, limit) win. A refused call gives its ticket back (`ADD n -1`), so
   * the next ticket points at the oldest admission again and the log stays exact for sequential
   * calls (concurrent refusals can leave it slightly conservative, never lax). Items expire (TTL)
   * one window after their last write, when they no longer matter. Two round trips per call.
   */
  async increment(key: string, windowSeconds: number, limit: number): Promise<CounterResult> {
    const shards = shardsFor(limit, windowSeconds, this.shardAbovePerSecond);
    if (shards === 1) return this.incrementLog(key, windowSeconds, limit);
    // Sharded: shard i admits its share of the limit (the shares add up to it), each by its own
    // log, so no window admits more than the limit in all. A call goes to a random shard and, if
    // that one is full, to the next: a key can be refused while a third shard still has room (a
    // strictness kept, an admission lost), never admitted above the limit.
    const first = Math.floor(Math.random() * shards);
    let result: CounterResult | undefined;
    for (const i of [first, (first + 1) % shards]) {
      const share = shareOf(limit, i, shards);
      const r = await this.incrementLog(`${key}#s${i}`, windowSeconds, share);
      if (r.allowed) return admitted(Math.ceil((r.count * limit) / share), limit, windowSeconds);
      if (!result || r.resetSeconds < result.resetSeconds) result = r;
    }
    return refused(limit, result!.resetSeconds * 1000);
  }

  /** The sliding log of one counter (described above increment). */
  private async incrementLog(key: string, windowSeconds: number, limit: number): Promise<CounterResult> {
    const now = this.now();
    const windowMs = windowSeconds * 1000;
    const expiresAt = { N: String(Math.ceil((now + windowMs) / 1000) + 1) };
    // Admissions per fixed window (`c<index>`) ride on the ticket item only for RateLimit-Remaining:
    // the current window's count plus the previous one's, weighted by how much of it is still in
    // the sliding window (an estimate; slots are what decide).
    const index = Math.floor(now / windowMs);
    const ticketKey = { pk: { S: `${key}#n` } };
    const cur = `c${index}`;
    const ticket = await this.client.send(
      new UpdateItemCommand({
        TableName: this.table,
        Key: ticketKey,
        UpdateExpression: 'ADD n :one, #cur :one SET expires_at = :exp REMOVE #old1, #old2',
        ExpressionAttributeNames: { '#cur': cur, '#old1': `c${index - 2}`, '#old2': `c${index - 3}` },
        ExpressionAttributeValues: { ':one': { N: '1' }, ':exp': expiresAt },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const attrs = ticket.Attributes ?? {};
    const n = Number(attrs.n?.N ?? 1) - 1;
    const slot = { pk: { S: `${key}#${((n % limit) + limit) % limit}` } };
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.table,
          Item: { ...slot, ts: { N: String(now) }, expires_at: expiresAt },
          ConditionExpression: 'attribute_not_exists(ts) OR ts <= :edge',
          ExpressionAttributeValues: { ':edge': { N: String(now - windowMs) } },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const held = err.Item?.ts?.N ?? (await this.client.send(new GetItemCommand({ TableName: this.table, Key: slot, ConsistentRead: true }))).Item?.ts?.N;
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: ticketKey,
          UpdateExpression: 'ADD n :minus, #cur :minus',
          ExpressionAttributeNames: { '#cur': cur },
          ExpressionAttributeValues: { ':minus': { N: '-1' } },
        }),
      );
      return refused(limit, held === undefined ? windowMs : Number(held) + windowMs - now);
    }
    const previous = Number(attrs[`c${index - 1}`]?.N ?? 0);
    const inWindow = Number(attrs[cur]?.N ?? 1) + previous * (1 - (now - index * windowMs) / windowMs);
    return admitted(Math.ceil(inWindow), limit, windowSeconds);
  }
}

/** How many shards a counter of `limit` calls per `windowSeconds` takes: one until the limit allows more than `perSecond` calls a second. */
export function shardsFor(limit: number, windowSeconds: number, perSecond: number): number {
  return Math.max(1, Math.min(limit, Math.ceil(limit / windowSeconds / perSecond)));
}

/** Shard i's share of the limit: equal parts, the first `limit % shards` one more. */
export function shareOf(limit: number, i: number, shards: number): number {
  return Math.floor(limit / shards) + (i < limit % shards ? 1 : 0);
}
