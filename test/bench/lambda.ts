import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { dbapp } from '../../functions/dbapp';
import { SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import type { Store } from '../../shared/store';
import type { Platform } from '../../shared/core/tool';
import { toolEvent } from '../../infra/lambda-events';

/** API Gateway's integration limit: what a Lambda behind it has per call. */
export const GATEWAY_MS = 29_000;

function context(deadline: number): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'bench-dbapp',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:bench-dbapp',
    memoryLimitInMB: '1024',
    awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
    logGroupName: '/aws/lambda/bench-dbapp',
    logStreamName: '2024/01/01/[$LATEST]bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done() {},
    fail() {},
    succeed() {},
  };
}

/**
 * A platform's Lambda handler (`lambdaHandler`, from source) against its vendor at `baseUrl` (a twin
 * in another process) with `store` for the counter, answering real API Gateway v2 events with `key`.
 * The service's own limit is lifted: the figures are about time, not admission. `vendorFetch`
 * (default: the global fetch) lets a bench see what the tools send.
 */
export function platformLambda(platform: Platform<any>, baseUrl: string, key: string, store: Store, vendorFetch?: typeof fetch) {
  const config = loadConfig({ [`${platform.name.toUpperCase()}_BASE_URL`]: baseUrl, RATE_LIMIT_MAX: '100000000' });
  const handler = lambdaHandler(platform, { config, store, ...(vendorFetch ? { fetchFor: { [platform.name]: vendorFetch } } : {}) });
  /** One tool call; the envelope's data, or an error when the answer is not success:true. */
  return async function call(tool: string, params: Record<string, unknown>, query = '', headers: Record<string, string> = {}): Promise<any> {
    const event = toolEvent(platform.name, tool, params, key);
    if (query) event.rawQueryString = query;
    Object.assign(event.headers as Record<string, string>, headers);
    const res = (await handler(event as never, context(Date.now() + GATEWAY_MS))) as APIGatewayProxyStructuredResultV2;
    const envelope = JSON.parse(String(res.body)) as { success?: boolean; data?: unknown };
    if (res.statusCode !== 200 || envelope.success !== true) throw new Error(`${platform.name}/${tool} failed (HTTP ${res.statusCode}): ${String(res.body).slice(0, 400)}`);
    return envelope.data;
  };
}

/** dbapp's handler against Tape at `tapeUrl` with the demo owner's key (platformLambda). */
export function dbappLambda(tapeUrl: string, store: Store, vendorFetch?: typeof fetch) {
  return platformLambda(dbapp, tapeUrl, SANDBOX_KEYS.owner, store, vendorFetch);
}
