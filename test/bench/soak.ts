/**
 * The soak: the service alone — the local server (`npm start`) with every platform's
 * <PLATFORM>_BASE_URL pointing at the sandbox twins in ANOTHER process (test/bench/vendor.ts) — under
 * mixed calls over all five platforms — reads, writes, batches, a file conversion — for SOAK_SECONDS
 * (default 600). Reported: calls, errors by code with the first answers of each (tool and message),
 * and what a leak is: the growth of the service's LIVE HEAP AFTER A FULL COLLECTION per 100,000
 * calls after warm-up (the slope of a least-squares line through the samples after the first fifth
 * of the run), less the growth of what its memory Store keeps by design, measured at each sample
 * (MemoryStore.stats: entries, and the heap they hold); goal: at most 10 MB per 100k. The service
 * runs test/bench/soak-service.ts (the local server, with --expose-gc), which answers each sample
 * over IPC every HEAP_SAMPLE_SECONDS. Both processes' RSS is sampled each second and reported
 * beside it, not judged (see RSS_NOTE). What the twins keep by design — objects written, deleted
 * ones kept as their vendors do (trash, archive) — grows in the twins' process and is reported apart.
 *
 * Part of `npm run bench` (benchRows, run.ts); alone: `SOAK_SECONDS=60 npx tsx test/bench/soak.ts`.
 * SOAK_HEAP_SNAPSHOTS=<dir>: the service writes V8 heap snapshots into <dir> at the end of warm-up
 * and at the end (service-1 and service-2.heapsnapshot: compare them in Chrome DevTools' Memory
 * tab); the pauses (calls in flight may go unanswered) and the snapshots' own memory distort that
 * run's figures, so such a run is for finding a leak, not for the slope.
 *
 * What the service keeps by design: its memory store holds one audit record per call for the
 * retention period (shared/core/audit.ts; DynamoDB holds them when deployed), so its live heap grows
 * with the calls even with no leak: that share is measured and taken off. Heap snapshots (above)
 * say WHAT grows when the measure says something does.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dataset } from '../../infra/twins/batchdata';
import { HUBSPOT_DEMO } from '../../infra/twins/hubspot';
import { PODIO_DEMO } from '../../infra/twins/podio';
import { localPlatforms } from '../../infra/local/platforms';
import { docxFile } from '../collab/files-fixtures';
import type { BenchRow } from './rows';
import type { ServiceSample } from './soak-service';
import { startLocalServer, startVendor } from './vendor';

export const SOAK_DEFAULT_SECONDS = 600;
/** Calls in flight at once: enough to keep the server busy, few enough for a 2-core machine. */
const CONCURRENCY = 4;
/** The part of the run before the growth is measured: caches, JIT and pools settle. */
const WARMUP_SHARE = 0.2;
/** "Flat": at most this many MB of live-heap growth (less the Store's kept data) per 100,000 calls after warm-up. */
const GOAL_MB_PER_100K = 10;
/** Seconds between two samples of the service's live heap (each a few full collections and a copy of the Store: a pause of a moment). */
const HEAP_SAMPLE_SECONDS = 5;
/** Why RSS is reported and not judged. */
const RSS_NOTE = "RSS is not the measure: it counts the heap V8 reserves, which grows towards its next full collection and is not given back, so it rises with no leak";
/** Answers kept per error code: enough to say what went wrong, not a log. */
const SAMPLES_PER_CODE = 3;

export interface SoakReport {
  seconds: number;
  calls: number;
  callsPerSecond: number;
  byCode: Record<string, number>;
  /** Per error code, the first answers: which tool, what it said (the service's message; no keys in it). */
  errors: Record<string, { tool: string; message: string }[]>;
  /** The service's live heap after a full collection (MB): at the start, after warm-up, at the end. */
  heapMb: { start: number; afterWarmup: number; end: number };
  heapGrowthMbPer100k: number;
  /** What the service's memory Store holds (entries; the heap they keep alive, MB), and its heap growth per 100k calls. */
  store: { entries: { afterWarmup: number; end: number }; mb: { afterWarmup: number; end: number }; entriesPer100k: number; growthMbPer100k: number };
  /** The measure: live-heap growth less the Store's, per 100k calls after warm-up. */
  leakMbPer100k: number;
  /** The service's process (report). */
  rssMb: { start: number; afterWarmup: number; end: number; peak: number };
  rssGrowthMbPer100k: number;
  /** The twins' process: grows with what they keep. */
  twinRssMb: { start: number; end: number };
  twins: { objectsCreated: number; objectsDeleted: number; netObjects: number; bytesWritten: number; bytesWrittenPer100k: number };
  /** 1-minute load average at the start and the end (a busy machine slows the calls, not the slope). */
  load: { start: number; end: number };
  samples: { s: number; calls: number; rssMb: number; twinRssMb: number }[];
  heapSamples: { s: number; calls: number; heapMb: number; storeMb: number; storeEntries: number }[];
}

/** The server's resident memory in MB (Linux: /proc; elsewhere: ps). */
function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // not Linux: ps below
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024;
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** Every number under `key` anywhere in a value (ids of a batch's results). */
function idsIn(value: unknown, key: string, out: (number | string)[] = []): (number | string)[] {
  if (Array.isArray(value)) value.forEach((v) => idsIn(v, key, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key && (typeof v === 'number' || typeof v === 'string')) out.push(v);
      else idsIn(v, key, out);
    }
  }
  return out;
}

export async function measureSoak(seconds: number): Promise<SoakReport> {
  const load = { start: loadavg()[0]! };
  const vendor = await startVendor(0);
  // The service's own rate limits would turn most of the soak into RATE_LIMITED answers.
  const baseUrls = Object.fromEntries(localPlatforms.map((p) => [`${p.platform.name.toUpperCase()}_BASE_URL`, `${vendor.base}${p.mount}`]));
  const snapshots = process.env.SOAK_HEAP_SNAPSHOTS || undefined;
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  const heapOptions = snapshots ? { SOAK_HEAP_SNAPSHOTS: snapshots, NODE_OPTIONS: `--import ${fileURLToPath(new URL('./heap-snapshots.mjs', import.meta.url))}` } : {};
  const service = { script: fileURLToPath(new URL('./soak-service.ts', import.meta.url)), nodeArgs: ['--expose-gc'], ipc: true };
  const server = await startLocalServer({ ...baseUrls, RATE_LIMIT_MAX: '1000000000', ...heapOptions }, service).catch(async (err: unknown) => {
    await vendor.stop();
    throw err;
  });
  const keys = Object.fromEntries(localPlatforms.map((p) => [p.platform.name, p.keys.owner]));
  const byCode: Record<string, number> = {};
  const errors: SoakReport['errors'] = {};
  const twins = { objectsCreated: 0, objectsDeleted: 0, bytesWritten: 0 };
  let calls = 0;

  async function call(tool: string, params: Record<string, unknown>): Promise<any> {
    const platform = tool.split('/')[0]!;
    const body = JSON.stringify(params);
    let answer: { success: boolean; data?: any; error?: { code: string; message?: string } };
    try {
      const res = await fetch(`${server.base}/v1/tools/${tool}?format=json`, { method: 'POST', headers: { authorization: `Bearer ${keys[platform]}`, 'content-type': 'application/json' }, body });
      answer = (await res.json()) as typeof answer;
    } catch (err) {
      // No answer at all (the service gone, a body that is not JSON): counted, not fatal to the run.
      const cause = err instanceof Error && err.cause instanceof Error ? ` (${(err.cause as NodeJS.ErrnoException).code ?? err.cause.message})` : '';
      answer = { success: false, error: { code: '(no answer)', message: `${err instanceof Error ? err.message : String(err)}${cause}` } };
    }
    calls++;
    const code = answer.success ? 'OK' : (answer.error?.code ?? '(no code)');
    byCode[code] = (byCode[code] ?? 0) + 1;
    if (!answer.success) {
      const seen = (errors[code] ??= []);
      if (seen.length < SAMPLES_PER_CODE) seen.push({ tool, message: String(answer.error?.message ?? '').slice(0, 300) });
    }
    return answer.success ? answer.data : undefined;
  }
  const created = (n: number, bytes: number) => {
    twins.objectsCreated += n;
    twins.bytesWritten += bytes;
  };
  const deleted = (n: number) => (twins.objectsDeleted += n);

  try {
    // What the cycles need from the seeded twins: Tape's Leads app (its required fields by external id), a Podio file to convert.
    const apps = await call('dbapp/listApps', {});
    const leads = (apps?.apps ?? []).find((a: { name: string }) => a.name === 'Leads') ?? { app_id: idsIn(apps, 'app_id')[0] };
    const lead = (name: string) => ({ name, status: ['New'] });
    const upload = await call('collab/uploadFile', { files: [{ filename: 'report.docx', content: Buffer.from(await docxFile()).toString('base64') }] });
    const fileId = idsIn(upload, 'file_id')[0];
    const property = dataset().properties[7]!.id;
    const dealApp = PODIO_DEMO.apps.deals;
    const firstDeal = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies + HUBSPOT_DEMO.contacts);

    let n = 0;
    const cycles: (() => Promise<void>)[] = [
      // reads
      async () => void (await call('crm/searchDeals', { filter_groups: [{ filters: [{ propertyName: 'dealname', operator: 'CONTAINS_TOKEN', value: 'renewal' }] }], limit: 10 })),
      async () => void (await call('crm/getDeal', { deal_id: firstDeal })),
      async () => void (await call('dbapp/listRecords', { app_id: leads.app_id, limit: 20 })),
      async () => void (await call('collab/filterItems', { app_id: dealApp, limit: 10 })),
      async () => void (await call('filebox/listUsers', {})),
      async () => void (await call('realty/lookupProperty', { property_id: property })),
      // writes: each object made is deleted again
      async () => {
        const values = { dealname: `Soak deal ${n++}` };
        const d = await call('crm/createDeal', { values });
        const id = idsIn(d, 'id')[0] ?? idsIn(d, 'deal_id')[0];
        if (id === undefined) return;
        created(1, JSON.stringify(values).length);
        await call('crm/updateDeal', { deal_id: String(id), values: { dealname: `Soak deal ${n++} (renamed)` } });
        if (await call('crm/deleteDeal', { deal_id: String(id) })) deleted(1);
      },
      async () => {
        const fields = lead(`Soak record ${n++}`);
        const r = await call('dbapp/createRecord', { app_id: leads.app_id, fields });
        const id = idsIn(r, 'record_id')[0];
        if (id === undefined) return;
        created(1, JSON.stringify(fields).length);
        if (await call('dbapp/deleteRecord', { record_id: id })) deleted(1);
      },
      async () => {
        const fields = { title: `Soak item ${n++}`, stage: 'Lead' };
        const r = await call('collab/createItem', { app_id: dealApp, fields });
        const id = idsIn(r, 'item_id')[0];
        if (id === undefined) return;
        created(1, JSON.stringify(fields).length);
        if (await call('collab/deleteItem', { item_id: id })) deleted(1);
      },
      async () => {
        const f = await call('filebox/createFolder', { parent_id: 'allshared', name: `Soak ${n++}` });
        const id = f?.Id ?? idsIn(f, 'Id')[0] ?? f?.item_id;
        if (id === undefined) return;
        created(1, 64);
        if (await call('filebox/deleteItem', { item_id: id })) deleted(1);
      },
      // batches
      async () => {
        const inputs = Array.from({ length: 10 }, () => ({ fields: lead(`Soak batch ${n++}`) }));
        const r = await call('dbapp/batchCreateRecords', { app_id: leads.app_id, inputs });
        const ids = idsIn(r, 'record_id');
        created(ids.length, JSON.stringify(inputs).length);
        for (const id of ids) if (await call('dbapp/deleteRecord', { record_id: id })) deleted(1);
      },
      async () => {
        const items = Array.from({ length: 5 }, () => ({ fields: { title: `Soak batch item ${n++}`, stage: 'Lead' } }));
        const r = await call('collab/batchCreateItems', { app_id: dealApp, items });
        const ids = idsIn(r, 'item_id');
        created(ids.length, JSON.stringify(items).length);
        if (ids.length && (await call('collab/batchDeleteItems', { items: ids.map((item_id) => ({ item_id })) }))) deleted(ids.length);
      },
      // a conversion
      async () => void (fileId !== undefined && (await call('collab/fileToMarkdown', { file_id: fileId }))),
    ];

    const started = performance.now();
    const until = started + seconds * 1000;
    const sample = () => ({ s: (performance.now() - started) / 1000, calls, rssMb: rssMb(server.pid), twinRssMb: rssMb(vendor.pid) });
    const samples: SoakReport['samples'] = [sample()];
    const sampler = setInterval(() => samples.push(sample()), 1000);
    // The live heap, asked over IPC with no call in flight: the workers finish their cycle and wait
    // at the gate, so what a call holds while it runs (a file being converted) is not in the sample
    // and every sample, the last one after the run too, is of the same idle process. One at a time
    // (a sample due while one is taken is skipped).
    const heapSamples: SoakReport['heapSamples'] = [];
    let gate: Promise<void> | undefined;
    let inCycle = 0;
    let drained: (() => void) | undefined;
    const heapSample = async () => {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      try {
        if (inCycle > 0) await new Promise<void>((resolve) => (drained = resolve));
        const s = (performance.now() - started) / 1000;
        const m = await askService(server.child);
        heapSamples.push({ s, calls, heapMb: m.heapUsed / MB, storeMb: (m.store.heapBytes ?? 0) / MB, storeEntries: m.store.entries });
      } finally {
        gate = undefined;
        open();
      }
    };
    let asking: Promise<void> | undefined = heapSample().finally(() => (asking = undefined));
    const heapSampler = setInterval(() => {
      asking ??= heapSample().finally(() => (asking = undefined));
    }, HEAP_SAMPLE_SECONDS * 1000);
    // On the signal the service writes service-<n>.heapsnapshot (test/bench/heap-snapshots.mjs); the name appears once it is complete.
    let taken = 0;
    const snapshot = async () => {
      const file = join(snapshots!, `service-${++taken}.heapsnapshot`);
      process.kill(server.pid, 'SIGUSR2');
      while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 200));
    };
    const warmupSnapshot = snapshots ? setTimeout(() => void snapshot(), seconds * WARMUP_SHARE * 1000) : undefined;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          while (gate) await gate;
          inCycle++;
          try {
            await cycles[next++ % cycles.length]!();
          } finally {
            if (--inCycle === 0) drained?.();
          }
        }
      }),
    );
    clearInterval(sampler);
    clearInterval(heapSampler);
    clearTimeout(warmupSnapshot);
    samples.push(sample());
    await asking;
    await heapSample();
    if (snapshots) await snapshot();
    const elapsed = samples.at(-1)!.s;
    const settled = samples.filter((p) => p.s >= elapsed * WARMUP_SHARE);
    const perCall = slope(settled.map((p) => ({ x: p.calls, y: p.rssMb })));
    const afterWarmup = settled[0]?.rssMb ?? samples[0]!.rssMb;
    const heapSettled = heapSamples.filter((p) => p.s >= elapsed * WARMUP_SHARE);
    const per100k = (y: (p: SoakReport['heapSamples'][number]) => number) => slope(heapSettled.map((p) => ({ x: p.calls, y: y(p) }))) * 100_000;
    const [heapFirst, heapWarm, heapLast] = [heapSamples[0]!, heapSettled[0] ?? heapSamples[0]!, heapSamples.at(-1)!];
    return {
      seconds: Math.round(elapsed),
      calls,
      callsPerSecond: Math.round(calls / elapsed),
      byCode,
      errors,
      heapMb: { start: round1(heapFirst.heapMb), afterWarmup: round1(heapWarm.heapMb), end: round1(heapLast.heapMb) },
      heapGrowthMbPer100k: round1(per100k((p) => p.heapMb)),
      store: {
        entries: { afterWarmup: heapWarm.storeEntries, end: heapLast.storeEntries },
        mb: { afterWarmup: round1(heapWarm.storeMb), end: round1(heapLast.storeMb) },
        entriesPer100k: Math.round(per100k((p) => p.storeEntries)),
        growthMbPer100k: round1(per100k((p) => p.storeMb)),
      },
      leakMbPer100k: round1(per100k((p) => p.heapMb - p.storeMb)),
      rssMb: { start: round1(samples[0]!.rssMb), afterWarmup: round1(afterWarmup), end: round1(samples.at(-1)!.rssMb), peak: round1(Math.max(...samples.map((p) => p.rssMb))) },
      rssGrowthMbPer100k: round1(perCall * 100_000),
      twinRssMb: { start: round1(samples[0]!.twinRssMb), end: round1(samples.at(-1)!.twinRssMb) },
      twins: { ...twins, netObjects: twins.objectsCreated - twins.objectsDeleted, bytesWrittenPer100k: Math.round((twins.bytesWritten / Math.max(calls, 1)) * 100_000) },
      load: { start: round1(load.start), end: round1(loadavg()[0]!) },
      samples: samples.map((p) => ({ s: round1(p.s), calls: p.calls, rssMb: round1(p.rssMb), twinRssMb: round1(p.twinRssMb) })),
      heapSamples: heapSamples.map((p) => ({ s: round1(p.s), calls: p.calls, heapMb: round1(p.heapMb), storeMb: round1(p.storeMb), storeEntries: p.storeEntries })),
    };
  } finally {
    await server.stop();
    await vendor.stop();
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const MB = 1024 * 1024;

/** One memory sample of the service (test/bench/soak-service.ts answers "sample" over IPC). */
function askService(child: ChildProcess): Promise<ServiceSample> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error('the service exited before answering a memory sample'));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as ServiceSample);
    });
    child.send('sample');
  });
}

function soakSeconds(): number {
  const raw = process.env.SOAK_SECONDS;
  const s = raw === undefined || raw === '' ? SOAK_DEFAULT_SECONDS : Number(raw);
  if (!Number.isFinite(s) || s <= 0) throw new Error(`SOAK_SECONDS must be a positive number of seconds, got "${raw}"`);
  return s;
}

function describe(r: SoakReport): string {
  const codes = Object.entries(r.byCode).map(([c, k]) => `${c} ${k.toLocaleString('en-US')}`).join(', ');
  const failures = Object.entries(r.errors).map(([code, list]) => `${code}: ${list.map((e) => `${e.tool} "${e.message}"`).join('; ')}`);
  return (
    `${r.calls.toLocaleString('en-US')} calls in ${r.seconds} s (${codes}); ` +
    `service live heap after GC ${r.heapMb.start} → ${r.heapMb.afterWarmup} after warm-up → ${r.heapMb.end} MB: ${r.heapGrowthMbPer100k} MB per 100k calls, of which the memory Store's kept data ${r.store.growthMbPer100k} MB ` +
    `(${r.store.entries.afterWarmup.toLocaleString('en-US')} → ${r.store.entries.end.toLocaleString('en-US')} entries holding ${r.store.mb.afterWarmup} → ${r.store.mb.end} MB, ${r.store.entriesPer100k.toLocaleString('en-US')} entries per 100k calls) → ${r.leakMbPer100k} MB per 100k not kept by the Store; ` +
    `service RSS (report) ${r.rssMb.start} → ${r.rssMb.afterWarmup} after warm-up → ${r.rssMb.end} MB (peak ${r.rssMb.peak}): ${r.rssGrowthMbPer100k} MB per 100k; ` +
    `twins' process RSS ${r.twinRssMb.start} → ${r.twinRssMb.end} MB, keeping ${r.twins.objectsCreated} objects written, ${r.twins.objectsDeleted} deleted (kept as trash/archive), ${r.twins.bytesWritten.toLocaleString('en-US')} B of values; ` +
    `load ${r.load.start} → ${r.load.end}${failures.length ? `; first errors — ${failures.join(' | ')}` : ''}`
  );
}

/**
 * The bench's rows (run.ts section 7): live-heap growth per 100k calls after warm-up less the
 * Store's kept data (judged), the Store's kept data and RSS (reported), and what the twins stored.
 */
export async function benchRows(): Promise<BenchRow[]> {
  const r = await measureSoak(soakSeconds());
  return [
    { figure: `soak ${r.seconds} s, 5 platforms: the service's live heap after GC, growth per 100k calls after warm-up less the memory Store's kept data (twins in another process)`, value: r.leakMbPer100k, unit: 'MB', goal: GOAL_MB_PER_100K, better: 'lower', detail: describe(r) },
    { figure: "soak: the memory Store's kept data, heap growth per 100k calls (audit records kept by design; DynamoDB holds them when deployed)", value: r.store.growthMbPer100k, unit: 'MB', goal: Number.POSITIVE_INFINITY, better: 'lower', reference: true, detail: `${r.store.entries.afterWarmup.toLocaleString('en-US')} → ${r.store.entries.end.toLocaleString('en-US')} entries, ${r.store.mb.afterWarmup} → ${r.store.mb.end} MB of heap (a copy's, measured at each sample)` },
    { figure: "soak: the service's RSS growth per 100k calls after warm-up", value: r.rssGrowthMbPer100k, unit: 'MB', goal: Number.POSITIVE_INFINITY, better: 'lower', reference: true, detail: `${r.rssMb.start} → ${r.rssMb.afterWarmup} after warm-up → ${r.rssMb.end} MB; ${RSS_NOTE}` },
    { figure: 'soak: calls not answered OK', value: r.calls - (r.byCode.OK ?? 0), unit: 'calls', goal: 0, better: 'lower', detail: Object.keys(r.errors).length ? 'see the row above for the first answers of each code' : `none of ${r.calls.toLocaleString('en-US')}` },
    { figure: "soak: the twins' stored data (values written per 100k calls, objects made and deleted)", value: r.twins.bytesWrittenPer100k / 1e6, unit: 'MB', goal: Number.POSITIVE_INFINITY, better: 'lower', reference: true, detail: `${r.twins.objectsCreated} made, ${r.twins.objectsDeleted} deleted; the twins keep deleted objects as their vendors do; their process's RSS ${r.twinRssMb.start} → ${r.twinRssMb.end} MB` },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await measureSoak(soakSeconds());
  console.log(describe(r));
  console.log(`${r.leakMbPer100k <= GOAL_MB_PER_100K ? 'PASS' : 'MISS'}: live-heap growth less the Store's kept data ${r.leakMbPer100k} MB per 100k calls (goal ≤ ${GOAL_MB_PER_100K}); ${RSS_NOTE}`);
  console.log(JSON.stringify({ ...r, samples: r.samples.filter((_, i) => i % 5 === 0) }, null, 2));
}
