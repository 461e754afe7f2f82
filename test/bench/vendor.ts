import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The sandbox twins in ANOTHER process, as a vendor is: the local server (`npm start`) with its
 * twin knobs, so the service under measurement shares neither its event loop nor its CPU time with
 * the vendor. Anyone reproduces a run with `TWIN_LATENCY_MS=… TWIN_CREDITS=… npm start`.
 */
export interface VendorProcess {
  /** The local server's base URL; each twin is under `<base><mount>` (e.g. /twins/tape). */
  base: string;
  latencyMs: number;
  /** The process id (the soak samples its memory). */
  pid: number;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** CPU ms (user + system) a process has used so far, from /proc/<pid>/stat (Linux; undefined elsewhere). */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 14th and 15th fields.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux build Node supports. */
const CLOCK_TICKS = 100;

export async function startVendor(latencyMs: number): Promise<VendorProcess> {
  return { ...(await startLocalServer({ TWIN_LATENCY_MS: String(latencyMs), TWIN_CREDITS: '1000000000' })), latencyMs };
}

/**
 * A local server (infra/local/server.ts) in its own process on a free port, with the memory store
 * and every platform on its in-process twin unless `extra` names a <PLATFORM>_BASE_URL: a
 * <NAME>_BASE_URL left in this process's environment (by a script, a shell) would send a platform
 * to another address, which may be gone by now. `opts.script` starts another entry that serves as
 * the local server does (the soak's, test/bench/soak-service.ts), with `opts.nodeArgs` and, when
 * `opts.ipc`, an IPC channel (the returned `child`).
 */
export async function startLocalServer(
  extra: NodeJS.ProcessEnv = {},
  opts: { script?: string; nodeArgs?: string[]; ipc?: boolean } = {},
): Promise<Omit<VendorProcess, 'latencyMs'> & { child: ChildProcess }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_OPTIONS', 'STORE', 'TABLE_NAME']) delete env[name];
  for (const name of Object.keys(env)) if (name.endsWith('_BASE_URL')) delete env[name];
  Object.assign(env, { PORT: '0', HOST: '127.0.0.1' }, extra);
  const args = [...(opts.nodeArgs ?? []), '--import', 'tsx', opts.script ?? 'infra/local/server.ts'];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe', ...(opts.ipc ? (['ipc'] as const) : [])] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`local server did not start:\n${out}\n${err}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local server exited (${code}):\n${out}\n${err}`));
    });
  });
  // Keep draining its output (a full pipe would stall it).
  child.stdout!.resume();
  child.stderr!.resume();
  return {
    base,
    child,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
