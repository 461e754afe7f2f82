import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handle } from 'hono/aws-lambda';
import { createApp } from '../http/app';
import { log } from '../log';
import { createRuntime, type RuntimeOptions } from '../runtime';

/**
 * The Lambda behind the identity routes (serverless.yml, function `identity`): the shared app
 * with no platform registered, so its bundle carries none of the tools. The runtime (store
 * client) starts at init, like the platform functions'; a failed start is retried.
 */
export function identityHandler(options: Partial<RuntimeOptions> = {}) {
  const start = () => {
    const started = createRuntime({ ...options, platforms: [] }).then((rt) => handle(createApp(rt)));
    started.catch((err: unknown) => {
      ready = undefined;
      log('error', 'runtime start failed; the next invocation retries', { function: 'identity', error: err instanceof Error ? err.message : String(err) });
    });
    return started;
  };
  let ready: ReturnType<typeof start> | undefined = start();
  return async (event: APIGatewayProxyEventV2, context: Context) => (await (ready ??= start()))(event as never, context as never);
}
