import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * A CommonJS file loaded with a V8 code cache made at build time (infra/build.ts), which spares the
 * cold start compiling what the cache holds: the file's top level and every function the build ran
 * through once. The cache is `<file>.cache`, with `<file>.cache.json` naming the Node version and
 * architecture that made it; it is used only on that same Node and architecture (a cache of
 * another V8 would be rejected anyway, after being read), and V8 itself rejects one that does not
 * match the file's source — then the file is compiled as without a cache. Node 22's own compile
 * cache (module.enableCompileCache) cannot be made at build time: it is keyed by the file's
 * absolute path, which differs in the Lambda package (/var/task/…).
 */
export interface CodeCacheMeta {
  node: string;
  arch: string;
}

/** 'used': V8 took the cache; 'rejected': V8 refused it; 'none': no cache of this Node and architecture. */
export type CodeCacheUse = 'used' | 'rejected' | 'none';

/** Node's CommonJS wrapper (the function a module's code runs in), as `require` compiles it. */
const wrap = (code: string): string => (Module as unknown as { wrap(code: string): string }).wrap(code);

export const cacheFiles = (file: string) => ({ data: `${file}.cache`, meta: `${file}.cache.json` });

/** The cache beside `file` when it was made by this Node on this architecture. */
function matchingCache(file: string): Buffer | undefined {
  const { data, meta } = cacheFiles(file);
  if (!existsSync(meta)) return undefined;
  try {
    const made = JSON.parse(readFileSync(meta, 'utf8')) as Partial<CodeCacheMeta>;
    if (made.node !== process.version || made.arch !== process.arch) return undefined;
    return readFileSync(data);
  } catch {
    return undefined;
  }
}

/** The file compiled as Node compiles a CommonJS module (same wrapper, so the cache matches), with its cache when one matches. */
export function compileWithCache(file: string, produce = false): { script: Script; use: CodeCacheUse } {
  const cachedData = produce ? undefined : matchingCache(file);
  const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, ...(cachedData ? { cachedData } : {}) });
  return { script, use: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

/** Runs a compiled CommonJS file as a module and answers its exports. */
export function runModule(script: Script, file: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** `require(file)` through its build-time code cache (compileWithCache). */
export function requireWithCache(file: string): { exports: Record<string, unknown>; use: CodeCacheUse } {
  const { script, use } = compileWithCache(file);
  return { exports: runModule(script, file), use };
}
