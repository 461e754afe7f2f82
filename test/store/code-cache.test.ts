import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheFiles, compileWithCache, runModule } from '../../shared/store/code-cache';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

/**
 * The build-time code cache of the store client (shared/store/code-cache.ts): used on the Node and
 * architecture that made it, left aside on any other, and a cache V8 refuses costs nothing but the
 * read — the module loads the same in every case. Each load runs in a fresh Node, as a cold start
 * does: within one process V8 keeps what it compiled and would not need any cache.
 */
let dir: string;
let file: string;
const SOURCE = `const path = require('node:path');
exports.twice = (xs) => xs.map((x) => x * 2);
exports.dir = __dirname;
exports.base = path.basename(__filename);
exports.self = module.exports === exports;`;

async function makeCache(meta: { node: string; arch: string }): Promise<void> {
  const { script } = compileWithCache(file, true);
  (runModule(script, file).twice as (xs: number[]) => number[])([1, 2]);
  const out = cacheFiles(file);
  await writeFile(out.data, script.createCachedData());
  await writeFile(out.meta, JSON.stringify(meta));
}

/** requireWithCache(file) in a fresh Node: how the cache was used and what the module exported. */
async function requireFresh(): Promise<{ use: string; exports: Record<string, unknown> }> {
  const script = `
const { requireWithCache } = require(${JSON.stringify(join(root, 'shared/store/code-cache.ts'))});
const { exports, use } = requireWithCache(process.env.FILE);
process.stdout.write(JSON.stringify({ use, exports: { ...exports, twice: exports.twice([1, 2, 3]) } }));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, env: { ...process.env, FILE: file }, timeout: 30_000 });
  return JSON.parse(stdout);
}

function expectLoaded(exports: Record<string, unknown>): void {
  expect(exports.twice).toEqual([2, 4, 6]);
  expect(exports.dir).toBe(dir);
  expect(exports.base).toBe('client.js');
  expect(exports.self).toBe(true);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tes-code-cache-'));
  file = join(dir, 'client.js');
  await writeFile(file, SOURCE);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('requireWithCache', () => {
  it('without a cache, loads the file as require would', async () => {
    const { exports, use } = await requireFresh();
    expect(use).toBe('none');
    expectLoaded(exports);
  });

  it('uses a cache made by this Node on this architecture', async () => {
    await makeCache({ node: process.version, arch: process.arch });
    const { exports, use } = await requireFresh();
    expect(use).toBe('used');
    expectLoaded(exports);
  });

  it('leaves aside a cache of another Node version or architecture', async () => {
    await makeCache({ node: 'v22.0.0-other', arch: process.arch });
    expect((await requireFresh()).use).toBe('none');
    await makeCache({ node: process.version, arch: process.arch === 'arm64' ? 'x64' : 'arm64' });
    const { exports, use } = await requireFresh();
    expect(use).toBe('none');
    expectLoaded(exports);
  });

  it('compiles without a cache V8 refuses (not made from this source), and without an unreadable one', async () => {
    await makeCache({ node: process.version, arch: process.arch });
    await writeFile(cacheFiles(file).data, Buffer.from('not a V8 code cache'));
    const refused = await requireFresh();
    expect(refused.use).toBe('rejected');
    expectLoaded(refused.exports);
    await writeFile(cacheFiles(file).meta, '{not json');
    expect((await requireFresh()).use).toBe('none');
  });
});
