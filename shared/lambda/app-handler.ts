import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createApp } from '../http/app';
import { httpAdapter } from './http-event';
import { taskWorker } from './task-event';
import { log } from '../core/log';
import { createRuntime, type RuntimeOptions } from './runtime';
import type { Platform } from '../core/tool';
import { configureIdentity } from '../identity';
import { approvalRoutes } from '../identity/approval-routes';

/**
 * A Lambda that serves the shared app over HTTP only (no direct invocations), for `platforms`:
 * the identity function (none: its bundle carries none of the tools) and the combined MCP
 * endpoint (all: /v1/mcp lists and calls every platform's tools, as the local server does).
 * The runtime (store client) starts at init, like the platform functions'; a failed start is retried.
 */
export function appHandler(name: string, platforms: readonly Platform<any>[], options: Partial<RuntimeOptions> = {}, described?: readonly Platform<any>[]) {
  const start = () => {
    const started = createRuntime({ ...options, platforms: [...platforms] }).then((rt) => {
      // The identity function connects and signs in to platforms whose tools it does not serve.
      if (described) configureIdentity(rt, { platforms: described });
      const app = createApp(rt);
      approvalRoutes(app, rt);
      return { rt, http: httpAdapter(app) };
    });
    started.catch((err: unknown) => {
      ready = undefined;
      log('error', 'runtime start failed; the next invocation retries', { function: name, error: err instanceof Error ? err.message : String(err) });
    });
    return started;
  };
  let ready: ReturnType<typeof start> | undefined = start();
  return async (event: APIGatewayProxyEventV2, context: Context) => {
    const { rt, http } = await (ready ??= start());
    // The combined MCP function runs its own tasks' workers, as a platform's function does.
    return taskWorker(rt, event, context) ?? http(event as never, context as never);
  };
}

/**
 * The identity function (serverless.yml, function `identity`): keys, connections, MCP sign-in for
 * `platforms`, whose descriptors it reads (auth, toolsets) but none of whose tools it serves or bundles.
 */
export const identityHandler = (platforms: readonly Platform<any>[], options: Partial<RuntimeOptions> = {}) => appHandler('identity', [], options, platforms);
