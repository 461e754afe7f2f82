import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoStore } from '../../shared/store/dynamo';
import type { DynamoStore } from '../../shared/store/dynamodb';

/**
 * The client as a function builds it (shared/store/dynamo.ts: middleware resolved once per command,
 * one signer for all requests) against a stand-in for DynamoDB that checks every request's SigV4
 * signature itself, with node:crypto, as
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html describes.
 * DynamoDB Local ignores signatures, so this is where a wrong one would show.
 */
const ENV = { AWS_ACCESS_KEY_ID: 'AKIDSTANDIN', AWS_SECRET_ACCESS_KEY: 'stand-in-secret', AWS_SESSION_TOKEN: 'stand-in-session' };
const REGION = 'eu-west-1';

interface Seen {
  target: string;
  body: Record<string, any>;
  /** The signature checked against the request as received. */
  signatureValid: boolean;
  scope: string;
  token?: string;
  attempt?: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** True when the Authorization header's signature is the one the secret gives for this request. */
function verify(req: IncomingMessage, body: Buffer): { valid: boolean; scope: string } {
  const auth = String(req.headers.authorization ?? '');
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return { valid: false, scope: '' };
  const [, keyId, scope, signedHeaders, signature] = m as unknown as [string, string, string, string, string];
  const [date, region, service] = scope.split('/') as [string, string, string];
  const amzDate = String(req.headers['x-amz-date']);
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [req.method, req.url, '', canonicalHeaders, signedHeaders, sha256(body)].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${ENV.AWS_SECRET_ACCESS_KEY}`, date), region), service), 'aws4_request');
  const valid = keyId === ENV.AWS_ACCESS_KEY_ID && names.includes('host') && names.includes('x-amz-date') && createHmac('sha256', key).update(toSign).digest('hex') === signature;
  return { valid, scope };
}

describe('the deployed DynamoDB client (shared/store/dynamo.ts) against a signature-checking stand-in', () => {
  let server: Server;
  let store: DynamoStore;
  const seen: Seen[] = [];
  const throttleOnce = new Set<string>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = JSON.parse(raw.toString('utf8')) as Record<string, any>;
        const target = String(req.headers['x-amz-target']);
        const { valid, scope } = verify(req, raw);
        seen.push({ target, body, signatureValid: valid, scope, token: req.headers['x-amz-security-token'] as string | undefined, attempt: req.headers['amz-sdk-request'] as string | undefined });
        const answer = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify(json));
        };
        const key = body.Item?.pk?.S ?? body.Key?.pk?.S;
        if (!valid) return answer(400, { __type: 'com.amazon.coral.service#InvalidSignatureException', message: 'signature does not match' });
        if (throttleOnce.delete(key)) return answer(400, { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' });
        if (target.endsWith('.PutItem') && body.ConditionExpression) return answer(400, { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' });
        if (target.endsWith('.GetItem')) return answer(200, { Item: { pk: { S: key }, v: { S: JSON.stringify({ key }) }, expires_at: { N: String(Math.ceil(Date.now() / 1000) + 60) } } });
        return answer(200, {});
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    store = createDynamoStore({ table: 'tes-store', endpoint, region: REGION }, ENV);
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('signs every request with its own body, sequential and concurrent, each with the TTL attribute', async () => {
    await store.put('first', { n: 1 }, 60);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(`k${i}`, { n: i }, 60)));
    expect(await store.get('k3')).toEqual({ key: 'k3' });
    await store.put('last', { n: 2 }, 60);
    expect(seen).toHaveLength(23);
    for (const s of seen) {
      expect(s.signatureValid).toBe(true);
      expect(s.scope).toMatch(new RegExp(`^\\d{8}/${REGION}/dynamodb/aws4_request$`));
      expect(s.token).toBe(ENV.AWS_SESSION_TOKEN);
    }
    const puts = seen.filter((s) => s.target === 'DynamoDB_20120810.PutItem');
    expect(new Set(puts.map((s) => s.body.Item.pk.S))).toEqual(new Set(['first', 'last', ...Array.from({ length: 20 }, (_, i) => `k${i}`)]));
    for (const s of puts) expect(Number(s.body.Item.expires_at.N)).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers a failed condition as the store expects (ConditionalCheckFailedException: putIfAbsent is false)', async () => {
    expect(await store.putIfAbsent('taken', { a: 1 }, 60)).toBe(false);
    expect(await store.putIfAbsent('taken', { a: 1 }, 60)).toBe(false);
    expect(seen.map((s) => s.signatureValid)).toEqual([true, true]);
  });

  it('retries a throttled request, signing the retry again', async () => {
    throttleOnce.add('busy');
    await store.put('busy', { a: 1 }, 60);
    expect(seen.map((s) => [s.body.Item.pk.S, s.signatureValid, s.attempt?.split(';')[0]])).toEqual([
      ['busy', true, 'attempt=1'],
      ['busy', true, 'attempt=2'],
    ]);
  });
});
