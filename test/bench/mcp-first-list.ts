/**
 * The MCP rows alone: `npx tsx test/bench/mcp-first-list.ts [runs]` — the cold start to the first
 * answer and the container's first MCP tools/list of every function serving tools, the combined
 * one included (each built bundle in fresh node processes, memory store, serverless.yml's
 * environment, twin in another process) and the tools/call overhead against the plain HTTP call (test/bench/surfaces.ts).
 * The full `npm run bench` reports the same figures with DynamoDB Local too.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREBUILT_DIR } from '../../infra/build';
import { localPlatforms } from '../../infra/local/platforms';
import { measureColdInit, type ColdTarget } from './cold';
import { mcpListEvent, toolEvent } from '../../infra/lambda-events';
import { deployedEnvironment } from './deployed';
import { benchRows } from './surfaces';
import { startVendor } from './vendor';

const root = fileURLToPath(new URL('../..', import.meta.url));

// A script only: run.ts imports every module here looking for benchRows, and importing this one must start nothing.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Number(process.argv[2] ?? 5);
  const vendor = await startVendor(0);
  try {
    const targets: Record<string, ColdTarget> = {};
    for (const p of localPlatforms) {
      targets[p.platform.name] = {
        baseUrl: `${vendor.base}${p.mount}`,
        event: toolEvent(p.platform.name, p.probe.tool, p.probe.params, p.keys.owner),
        listEvent: mcpListEvent(p.platform.name, p.keys.owner),
      };
    }
    // The combined function (functions/mcp/handler.ts): first a realty call (its twin named in the
    // environment of every child, never in this process's), then the first list of /v1/mcp with every platform's tools.
    const realty = localPlatforms.find((p) => p.platform.name === 'realty')!;
    targets.mcp = {
      baseUrl: targets.realty!.baseUrl,
      event: targets.realty!.event,
      listEvent: mcpListEvent('realty', realty.keys.owner, '/v1/mcp'),
    };
    // The built handlers: handler.js, or the combined function's handler.mjs (its split build, infra/build.ts).
    const handlerOf = (name: string) => [`${root}dist/${name}/handler.mjs`, `${root}dist/${name}/handler.js`].find((f) => existsSync(f))!;
    const bundles = [...localPlatforms.map((p) => p.platform.name), 'mcp'].map((name) => ({ name, file: handlerOf(name) }));
    const cold = await measureColdInit(bundles, targets, runs, [{ name: 'memory', env: { STORE: 'memory' } }], { ...deployedEnvironment({ StoreTable: 'tes-bench', BlobBucket: 'tes-bench-blobs' }), REALTY_BASE_URL: targets.realty!.baseUrl });
    // The cold start to the first answer (the combined function's: a realty call, its tool's chunk loaded then).
    console.log(`floor (empty node) ${cold.floor.medianLineMs.toFixed(1)} ms, CPU ${cold.floor.medianCpuMs.toFixed(1)} ms; load average ${loadavg().map((n) => n.toFixed(1)).join(' / ')}`);
    for (const f of cold.functions) {
      console.log(`cold start ${f.name.padEnd(8)} first answer ${(f.medianLineMs - cold.floor.medianLineMs).toFixed(1)} ms above the floor, CPU ${f.medianCpuMs.toFixed(1)} ms, require ${f.medianRequireMs.toFixed(1)} ms (median of ${runs}, memory store)`);
    }
    for (const f of cold.functions) {
      // The JS a cold start parses, and the build-time documents the first list reads (infra/build.ts).
      const dir = join(dirname(f.file), PREBUILT_DIR);
      const data = existsSync(dir) ? readdirSync(dir).reduce((n, file) => n + statSync(join(dir, file)).size, 0) : 0;
      console.log(
        `first MCP tools/list ${f.name.padEnd(8)} ${f.medianListMs.toFixed(2)} ms wall, ${f.medianListCpuMs.toFixed(2)} ms CPU (${f.listedTools} tools; goal ≤ 5 ms); ` +
          `${basename(f.file)} ${statSync(f.file).size} B, data files ${data} B`,
      );
    }
  } finally {
    await vendor.stop();
  }
  for (const r of await benchRows()) if (r.unit === 'ms') console.log(`${r.figure}: ${r.value} ms (goal ≤ ${r.goal}); ${r.detail}`);
}
