import type { MiddlewareHandler } from 'hono';

/**
 * Every answer leaves `ms` after the request came in, the twin's own work included: the time a
 * real vendor takes to answer, whatever part of it is network or server. Real time on purpose
 * (it stands in for the network in benchmarks), not the twin's clock.
 */
export function latency(ms: number): MiddlewareHandler {
  return async (_c, next) => {
    const started = performance.now();
    await next();
    const left = ms - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  };
}
