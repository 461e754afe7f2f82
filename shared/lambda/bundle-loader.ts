import { join } from 'node:path';
import { log } from '../core/log';
import { requireWithCache } from '../store/code-cache';

/**
 * The file of a function's bundle beside its handler.js (infra/build.ts). Lambda compiles the
 * handler's own file itself, with no code cache; so handler.js is only this loader, and the bundle
 * (the function's code: shared/lambda/handler.ts and everything under it) is this file, compiled
 * with the V8 code cache the build made of it.
 */
export const BUNDLE_FILE = 'bundle.js';

/**
 * The exports of the bundle in `dir`, compiled through its build-time code cache
 * (shared/store/code-cache.ts: used only on the Node version and architecture that made it; V8
 * refuses one of other source). Without a cache it compiles as `require` would.
 */
export function loadBundle(dir: string): Record<string, unknown> {
  const loaded = requireWithCache(join(dir, BUNDLE_FILE));
  if (loaded.use === 'rejected') log('warn', "the code cache of the function's bundle was rejected: it is compiled without it", {});
  return loaded.exports;
}
