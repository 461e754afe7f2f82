/**
 * Preloaded into the soak's service process when SOAK_HEAP_SNAPSHOTS names a directory
 * (test/bench/soak.ts): on SIGUSR2 it writes a V8 heap snapshot there as service-<n>.heapsnapshot,
 * renamed into place only once complete, so the bench can wait for the name. Plain JavaScript:
 * NODE_OPTIONS preloads run before the TypeScript loader is registered.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

const dir = process.env.SOAK_HEAP_SNAPSHOTS;
let n = 0;
if (dir) {
  process.on('SIGUSR2', () => {
    n += 1;
    const partial = writeHeapSnapshot(join(dir, `.service-${n}.partial`));
    renameSync(partial, join(dir, `service-${n}.heapsnapshot`));
  });
}
