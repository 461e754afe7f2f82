import { ERROR_CATALOGUE, type ErrorCode } from '../core/errors';
import type { CatalogEntry, JsonSchema } from './catalog';
import { toolTitle } from './providers';
import type { Platform } from '../core/tool';

/**
 * The OpenAPI 3.1 document of the HTTP protocol, generated from the registry: one operation per
 * tool (POST /v1/tools/{platform}/{tool}) whose request body is the tool's JSON Schema (3.1 takes
 * JSON Schema 2020-12 as is), the envelope as responses with the error catalogue, bearer auth, and
 * the `format`/`base64` query parameters.
 */
export function openApiDocument(
  entries: readonly CatalogEntry[],
  platforms: readonly Platform[],
  serverUrl?: string,
  /** More routes with their own security (the identity routes: shared/identity/openapi.ts). */
  extra?: { paths: Record<string, unknown>; securitySchemes: Record<string, unknown>; tag: { name: string; description: string } },
): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const e of entries) {
    const { $schema: _, ...body } = e.inputSchema;
    paths[`/v1/tools/${e.platform}/${e.name}`] = {
      post: {
        operationId: `${e.platform}_${e.name}`,
        summary: toolTitle(e.name),
        description: e.description,
        tags: [e.platform],
        parameters: [{ $ref: '#/components/parameters/format' }, { $ref: '#/components/parameters/base64' }],
        requestBody: {
          // An empty body means no parameters: the same as {}.
          required: false,
          content: { 'application/json': { schema: body as JsonSchema } },
        },
        responses: {
          '200': { $ref: '#/components/responses/Success' },
          ...Object.fromEntries((Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => [String(ERROR_CATALOGUE[code].status), { $ref: `#/components/responses/${code}` }])),
        },
        'x-tool-annotations': e.annotations,
        ...(e.group ? { 'x-tool-group': e.group } : {}),
      },
    };
  }
  const used = new Set(entries.map((e) => e.platform));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tool Execution Service',
      version: '0.1.0',
      description:
        'Uniform tools over SaaS platforms. Each tool is POST /v1/tools/{platform}/{tool} with a JSON object of its parameters and the platform API key as ' +
        'bearer token (passed through to the platform). Answers are an envelope: {success: true, data} (compact text by default, the structured result ' +
        'with ?format=json) or {success: false, error: {code, message, details}}.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    tags: [...platforms.filter((p) => used.has(p.name)).map((p) => ({ name: p.name, description: `${p.vendor} tools` })), ...(extra ? [extra.tag] : [])],
    paths: { ...paths, ...extra?.paths },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key of the platform (its vendor key), passed through to the platform.' },
        ...extra?.securitySchemes,
      },
      parameters: {
        format: {
          name: 'format',
          in: 'query',
          required: false,
          description: '"json": data is the structured result; omitted or "text": data is compact text for a model.',
          schema: { type: 'string', enum: ['json', 'text'], default: 'text' },
        },
        base64: {
          name: 'base64',
          in: 'query',
          required: false,
          description: '"true": the whole envelope (UTF-8 JSON) comes base64-encoded as text/plain, for clients that cannot take JSON.',
          schema: { type: 'string', enum: ['true', 'false'], default: 'false' },
        },
      },
      headers: {
        'RateLimit-Limit': { description: 'Calls allowed per window for this key on this platform.', schema: { type: 'integer' } },
        'RateLimit-Remaining': { description: 'Calls left in the window.', schema: { type: 'integer' } },
        'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds to wait before retrying (RATE_LIMITED).', schema: { type: 'integer' } },
      },
      schemas: {
        Success: {
          type: 'object',
          required: ['success', 'data'],
          properties: {
            success: { const: true },
            data: { description: 'Compact text (default), or the structured result with ?format=json.' },
          },
        },
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message', 'details'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
                message: { type: 'string', description: 'What went wrong and how to fix it, for a model to act on.' },
                details: {
                  type: 'object',
                  description: 'INVALID_PARAMETER: parameter and expected; RATE_LIMITED: retry_after; NOT_FOUND: platform, tool or the resource.',
                  properties: {
                    parameter: { type: 'string' },
                    expected: { type: 'string' },
                    retry_after: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        Success: {
          description: 'The tool ran.',
          headers: rateHeaders(),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
        },
        ...Object.fromEntries(
          (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => [
            code,
            {
              description: `${code}: ${ERROR_CATALOGUE[code].meaning}`,
              headers: code === 'RATE_LIMITED' ? { ...rateHeaders(), 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : rateHeaders(),
              // Its own example: without one, viewers show the schema's first code (INVALID_PARAMETER) for every status.
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { success: false, error: { code, ...ERROR_EXAMPLES[code] } } } },
            },
          ]),
        ),
      },
    },
  };
}

/** What each error looks like, for the response examples. */
const ERROR_EXAMPLES: Record<ErrorCode, { message: string; details: Record<string, unknown> }> = {
  INVALID_PARAMETER: { message: 'Parameter "workspace_id" must be a positive integer; got "abc".', details: { parameter: 'workspace_id', expected: 'positive integer' } },
  UNAUTHORIZED: { message: 'Missing Authorization header. Send the platform API key as "Authorization: Bearer <key>".', details: {} },
  FORBIDDEN: { message: 'The key may not do this: the platform refused the operation for lack of permission.', details: {} },
  NOT_FOUND: { message: 'Unknown tool "getDael" on platform "crm". List the tools with GET /v1/tools/crm.', details: { platform: 'crm', tool: 'getDael' } },
  RATE_LIMITED: { message: 'Rate limit of 100 calls per 60 s for this key on "crm" reached; retry after 12 s.', details: { retry_after: 12, limit: 100, window_seconds: 60 } },
  INTERNAL_ERROR: { message: 'The service hit an unexpected error; it has been logged. Retry later.', details: {} },
};

const rateHeaders = () => ({
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
});
