import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { ToolError } from '../errors';
import { execute, failure, type Envelope, type Runtime } from '../execute';
import { createRuntime, type RuntimeOptions } from '../runtime';
import type { Platform } from '../tool';
import { createApp } from './app';
import { readSecureKey } from './ssm';

/** A scheduled job's event: the key is read from an SSM SecureString, never sent in the event. */
export interface DirectEvent {
  tool: string;
  params?: unknown;
  format?: 'text' | 'json';
  /** Name of the SSM Parameter Store SecureString holding the platform API key. */
  key_parameter: string;
  platform?: string;
}

type HttpEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

const isHttpEvent = (e: object): e is HttpEvent => 'requestContext' in e;

/**
 * The Lambda entry of one platform: API Gateway HTTP API (v2) and REST (v1) events go through
 * the shared Hono app; any other event is a direct invocation {tool, params, format?, key_parameter}.
 */
export function lambdaHandler(platform: Platform<any>, options: Partial<RuntimeOptions> = {}) {
  let ready: Promise<{ rt: Runtime; http: ReturnType<typeof handle> }> | undefined;
  const init = async () => {
    const rt = await createRuntime({ ...options, platforms: [platform] });
    return { rt, http: handle(createApp(rt)) };
  };

  return async function handler(event: HttpEvent | DirectEvent, context: Context) {
    // A failed start is not kept: the next invocation of this container tries again.
    const { rt, http } = await (ready ??= init().catch((err: unknown) => {
      ready = undefined;
      throw err;
    }));
    if (event && typeof event === 'object' && isHttpEvent(event)) return http(event as never, context as never);
    if (!event || typeof event !== 'object' || Array.isArray(event)) {
      return failure(
        new ToolError('INVALID_PARAMETER', 'A direct invocation takes an object {tool, params, format?, key_parameter}.', { parameter: '(event)', expected: 'object' }),
        { platform: platform.name, tool: '' },
      ).body;
    }
    return direct(rt, platform, event, context);
  };
}

async function direct(rt: Runtime, platform: Platform<any>, event: DirectEvent, context: Context): Promise<Envelope> {
  const call = { platform: event.platform ?? platform.name, tool: String(event.tool ?? '') };
  try {
    if (['key', 'api_key', 'authorization', 'token'].some((k) => k in event)) {
      throw new ToolError('INVALID_PARAMETER', 'A plaintext key in the event is refused. Store the key as an SSM SecureString and pass its name as "key_parameter".', {
        parameter: 'key_parameter',
        expected: 'name of an SSM SecureString parameter',
      });
    }
    if (typeof event.key_parameter !== 'string' || event.key_parameter === '') {
      throw new ToolError('UNAUTHORIZED', 'Direct invocation needs "key_parameter": the name of the SSM SecureString that holds the API key.', {
        parameter: 'key_parameter',
        expected: 'name of an SSM SecureString parameter',
      });
    }
    if (event.format !== undefined && event.format !== 'text' && event.format !== 'json') {
      throw new ToolError('INVALID_PARAMETER', `"format" must be "json" or "text"; got ${JSON.stringify(event.format)}.`, { parameter: 'format', expected: '"json" or "text"' });
    }
    const key = await readSecureKey(event.key_parameter);
    const outcome = await execute(rt, {
      ...call,
      key,
      params: event.params ?? {},
      format: event.format ?? 'text',
      deadline: Date.now() + context.getRemainingTimeInMillis(),
    });
    return outcome.body;
  } catch (err) {
    return failure(err, call).body;
  }
}
