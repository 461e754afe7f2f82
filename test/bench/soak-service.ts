import { startLocal, startupMessage } from '../../infra/local/server';
import { MemoryStore } from '../../shared/store/memory';
import { runWhenStarted } from './script';

/**
 * The soak's service process (test/bench/soak.ts): the local server as `npm start` runs it
 * (startLocal, the same startup line), started with --expose-gc and an IPC channel. On the message
 * "sample" it answers its memory as a leak shows: the live heap after a full collection, beside its
 * RSS, and what its memory Store keeps by design (entries, and the heap they hold: MemoryStore.stats).
 * The collections pause the process for a moment; calls in flight wait.
 */
export interface ServiceSample {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  store: { entries: number; counters: number; heapBytes?: number };
}

await runWhenStarted(import.meta.url, 'soak service', async () => {
  const gc = globalThis.gc;
  if (!gc || !process.send) throw new Error('start with --expose-gc and an IPC channel (test/bench/soak.ts does)');
  const { base, config, knobs, rt } = await startLocal();
  console.log(startupMessage(base, config, knobs));
  // Two full collections: what the first one's finalizers and weak references let go, the second frees.
  const liveHeap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  process.on('message', (message) => {
    if (message !== 'sample') return;
    const heapUsed = liveHeap();
    const { heapTotal, rss } = process.memoryUsage();
    const store = rt.store instanceof MemoryStore ? rt.store.stats(liveHeap) : { entries: 0, counters: 0 };
    process.send!({ heapUsed, heapTotal, rss, store } satisfies ServiceSample);
  });
  // The bench gone (its IPC channel closed): nothing left to answer.
  process.on('disconnect', () => process.exit(0));
});
