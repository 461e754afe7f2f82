/**
 * The automation sandbox for custom code (custom_code, custom_variable, script conditions and
 * code values): QuickJS compiled to WebAssembly, a fresh runtime and context per evaluation,
 * with a deadline (interrupt handler), a memory limit and a stack limit. The guest sees only what
 * is injected as JSON — no fetch, no require, no process, no timers, no host functions.
 */
import { getQuickJS, shouldInterruptAfterDeadline, type QuickJSWASMModule } from 'quickjs-emscripten';

export interface SandboxLimits {
  /** Wall-clock budget of one evaluation. */
  timeoutMs: number;
  /** Heap limit of the guest runtime. */
  memoryBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024 };

export type SandboxFailure = 'timeout' | 'memory' | 'error';

export class SandboxError extends Error {
  constructor(readonly kind: SandboxFailure, message: string) {
    super(message);
  }
}

let modulePromise: Promise<QuickJSWASMModule> | undefined;
/** Loads the WebAssembly module once per process. */
export function loadSandbox(): Promise<QuickJSWASMModule> {
  modulePromise ??= getQuickJS();
  return modulePromise;
}

/** What a program left behind: its result, the values of the named variables, and console lines. */
export interface SandboxResult {
  result: unknown;
  vars: Record<string, unknown>;
  logs: string[];
}

const CONSOLE = `const __logs = [];
const __fmt = (a) => typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })();
const console = { log: (...a) => { __logs.push(a.map(__fmt).join(' ')); }, info: (...a) => console.log(...a), warn: (...a) => console.log(...a), error: (...a) => console.log(...a) };
`;

/**
 * Runs `body` (a statement block where `return` is legal, or with `expression` a single
 * expression) with `globals` defined as constants and `vars` as mutable variables; returns the
 * result and the variables' final values. Values cross the boundary as JSON only.
 */
export async function runInSandbox(
  body: string,
  opts: { expression?: boolean; globals?: Record<string, unknown>; vars?: Record<string, unknown>; limits?: Partial<SandboxLimits> },
): Promise<SandboxResult> {
  const QuickJS = await loadSandbox();
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
  const vm = runtime.newContext();
  try {
    const decl = [
      ...Object.entries(opts.globals ?? {}).map(([k, v]) => `const ${k} = ${JSON.stringify(v ?? null)};`),
      ...Object.entries(opts.vars ?? {}).map(([k, v]) => `let ${k} = ${JSON.stringify(v ?? null)};`),
    ].join('\n');
    const varNames = Object.keys(opts.vars ?? {});
    const run = opts.expression ? `(\n${body}\n)` : `(function () {\n${body}\n})()`;
    const program = `"use strict";\n${CONSOLE}${decl}\nconst __result = ${run};\nJSON.stringify({ result: __result === undefined ? null : __result, vars: { ${varNames.join(', ')} }, logs: __logs });`;
    const out = vm.evalCode(program, 'automation.js');
    if (out.error) {
      const err = vm.dump(out.error) as { name?: string; message?: string } | string;
      out.error.dispose();
      const message = typeof err === 'string' ? err : `${err?.name ?? 'Error'}: ${err?.message ?? String(err)}`;
      if (/interrupted/i.test(message)) throw new SandboxError('timeout', `The code ran longer than ${limits.timeoutMs} ms and was stopped.`);
      if (/out of memory/i.test(message)) throw new SandboxError('memory', `The code exceeded the ${Math.round(limits.memoryBytes / 1024 / 1024)} MB memory limit.`);
      throw new SandboxError('error', message);
    }
    const text = vm.dump(out.value) as string;
    out.value.dispose();
    return JSON.parse(text) as SandboxResult;
  } catch (e) {
    if (e instanceof SandboxError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    if (/out of memory/i.test(message)) throw new SandboxError('memory', `The code exceeded the ${Math.round(limits.memoryBytes / 1024 / 1024)} MB memory limit.`);
    throw new SandboxError('error', message);
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

/** The internal variable name of a declared label (docs/vendors/tape.md#automation-advanced): `var_` + the label lower-cased, other characters as `_`. */
export function variableName(label: string): string {
  return `var_${label.toLowerCase().replace(/[^0-9a-zA-Z_$]/g, '_')}`;
}
