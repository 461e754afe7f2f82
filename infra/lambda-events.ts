import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/**
 * API Gateway events and a Lambda context as AWS delivers them (shapes from the API Gateway
 * developer guide, "payload format version" 1.0 and 2.0, and @types/aws-lambda), for running a
 * handler outside Lambda: the build's code-cache run (infra/build.ts), the tests and the benches.
 */

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path of the request, e.g. /v1/tools/dbapp/listWorkspaces (no stage: the $default stage). */
  path: string;
  query?: Record<string, string>;
  /** Header names as the client sent them; the v2 event lower-cases them as API Gateway does. */
  headers?: Record<string, string>;
  body?: string;
  /** Send the body base64-encoded with isBase64Encoded: true (binary media types). */
  base64Body?: boolean;
}

const API_ID = 'a1b2c3d4e5';
const ACCOUNT_ID = '123456789012';
const DOMAIN = `${API_ID}.execute-api.eu-central-1.amazonaws.com`;
const SOURCE_IP = '203.0.113.7';
const USER_AGENT = 'agent-host/1.0';

/** The route an API Gateway route key names for a path of the service (serverless.yml). */
function routeOf(method: string, path: string): string {
  if (method === 'POST' && /^\/v1\/tools\/[^/]+\/[^/]+$/.test(path)) return `/v1/tools/${path.split('/')[3]}/{tool}`;
  return path;
}

function pathParameters(path: string): Record<string, string> | undefined {
  const m = /^\/v1\/tools\/[^/]+\/([^/]+)$/.exec(path);
  return m ? { tool: decodeURIComponent(m[1]!) } : undefined;
}

function encodeBody(r: HttpRequest): string | undefined {
  if (r.body === undefined) return undefined;
  return r.base64Body ? Buffer.from(r.body, 'utf8').toString('base64') : r.body;
}

const clientHeaders = (r: HttpRequest): Record<string, string> => ({
  Accept: '*/*',
  Host: DOMAIN,
  'User-Agent': USER_AGENT,
  'X-Amzn-Trace-Id': 'Root=1-6740f5a0-0123456789abcdef01234567',
  'X-Forwarded-For': SOURCE_IP,
  'X-Forwarded-Port': '443',
  'X-Forwarded-Proto': 'https',
  ...(r.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(r.body)) } : {}),
  ...r.headers,
});

/** HTTP API, payload format 2.0 ($default stage, as serverless.yml's httpApi deploys it). */
export function httpApiV2Event(r: HttpRequest): APIGatewayProxyEventV2 {
  const routeKey = `${r.method} ${routeOf(r.method, r.path)}`;
  const headers = Object.fromEntries(Object.entries(clientHeaders(r)).map(([k, v]) => [k.toLowerCase(), v]));
  const query = r.query ?? {};
  const now = Date.now();
  const params = pathParameters(r.path);
  const body = encodeBody(r);
  return {
    version: '2.0',
    routeKey,
    rawPath: r.path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: { ...query } } : {}),
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      domainName: DOMAIN,
      domainPrefix: API_ID,
      http: { method: r.method, path: r.path, protocol: 'HTTP/1.1', sourceIp: SOURCE_IP, userAgent: USER_AGENT },
      requestId: 'BxDt7hXPliAEJbQ=',
      routeKey,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(params ? { pathParameters: params } : {}),
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: r.base64Body === true,
  };
}

/** REST API, payload format 1.0 (proxy integration; stage "dev"). */
export function restApiV1Event(r: HttpRequest): APIGatewayProxyEvent {
  const headers = clientHeaders(r);
  const query = r.query;
  const resource = routeOf(r.method, r.path);
  const now = Date.now();
  return {
    resource,
    path: r.path,
    httpMethod: r.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query && Object.keys(query).length ? { ...query } : null,
    multiValueQueryStringParameters: query && Object.keys(query).length ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: pathParameters(r.path) ?? null,
    stageVariables: null,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer: undefined,
      domainName: DOMAIN,
      domainPrefix: API_ID,
      extendedRequestId: 'BxDt7hXPliAEJbQ=',
      httpMethod: r.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: SOURCE_IP,
        user: null,
        userAgent: USER_AGENT,
        userArn: null,
      },
      path: `/dev${r.path}`,
      protocol: 'HTTP/1.1',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTime: '22/Nov/2026:05:00:00 +0000',
      requestTimeEpoch: now,
      resourceId: 'x1y2z3',
      resourcePath: resource,
      stage: 'dev',
    },
    body: encodeBody(r) ?? null,
    isBase64Encoded: r.base64Body === true,
  };
}

/** A Lambda context whose time budget counts down from `budgetMs`. */
export function lambdaContext(budgetMs = 29_000): Context {
  const end = Date.now() + budgetMs;
  const fn = 'tool-execution-service-dev-dbapp';
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: fn,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-central-1:${ACCOUNT_ID}:function:${fn}`,
    memoryLimitInMB: '512',
    awsRequestId: '8f5a7c1e-3b2d-4e6f-9a0b-1c2d3e4f5a6b',
    logGroupName: `/aws/lambda/${fn}`,
    logStreamName: '2026/11/22/[$LATEST]0123456789abcdef0123456789abcdef',
    getRemainingTimeInMillis: () => Math.max(0, end - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** fetch as API Gateway (HTTP API, payload 2.0) delivers it to a Lambda handler, and its answer back. */
export function viaLambda(handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    const event = httpApiV2Event({
      method: req.method as HttpRequest['method'],
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(req.headers),
      ...(body !== undefined ? { body } : {}),
    });
    const res = (await handler(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    return new Response(res.body ?? null, { status: res.statusCode ?? 200, headers: res.headers as Record<string, string> });
  }) as typeof fetch;
}

/** POST /v1/tools/{platform}/{tool} with `params` as its body and `key` as the Bearer key. */
export function toolEvent(platform: string, tool: string, params: Record<string, unknown>, key: string): APIGatewayProxyEventV2 {
  return httpApiV2Event({ method: 'POST', path: `/v1/tools/${platform}/${tool}`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
}

/** An MCP `tools/list` request (stateless Streamable HTTP: no initialize needed) to `path` (default: the platform's endpoint). */
export function mcpListEvent(platform: string, key: string, path = `/v1/mcp/${platform}`): APIGatewayProxyEventV2 {
  return httpApiV2Event({
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}
