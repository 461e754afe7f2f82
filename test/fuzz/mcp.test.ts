import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPlatforms } from '../../infra/local/platforms';
import { ERROR_CATALOGUE } from '../../shared/core/errors';
import { checkEnvelope, checkInvalid, checkValid, OracleError, type Answer } from './oracle';
import { inputArb, invalidArb, type InvalidCase, type Schema } from './schema-arb';
import { fuzzTarget } from './suite';

/**
 * The fuzz suite's MCP side: `tools/call` over every tool of every platform through the app's
 * /v1/mcp/{platform} endpoint, with arguments generated from the tools' served schemas (as the REST
 * suite in suite.ts), plus malformed JSON-RPC requests. Oracle: never HTTP 500, never -32603, every
 * answer a well-formed JSON-RPC response to the request's id; a valid call never INTERNAL_ERROR nor a
 * protocol error;
 * a one-fault call INVALID_PARAMETER naming the parameter, with no vendor request (as a tool-error
 * result, or -32602 where the service refuses before the call, e.g. past the nesting limit).
 * FUZZ_SEED reproduces a run; MCP_FUZZ_RUNS sets the calls per tool (half valid, half one-fault):
 * modest by default, since CI runs it on every push.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.MCP_FUZZ_RUNS ?? 6);
/** Malformed requests generated per platform (beside the fixed ones). */
const MALFORMED_RUNS = Math.max(10, RUNS * 5);

type Rpc = { jsonrpc?: unknown; id?: unknown; result?: any; error?: any };

function fail(message: string, status: number, body: unknown): never {
  throw new OracleError(`${message}\n  status ${status}, body ${JSON.stringify(body).slice(0, 600)}`);
}

/** A JSON-RPC response to `id`: exactly one of result and error; an error with an integer code other than -32603 and a message. */
function checkRpc(status: number, body: unknown, id: unknown): Rpc {
  if (status >= 500) fail(`HTTP ${status}`, status, body);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail('not one JSON-RPC response object', status, body);
  const r = body as Rpc;
  if (r.jsonrpc !== '2.0') fail('jsonrpc is not "2.0"', status, body);
  if (('result' in r) === ('error' in r)) fail('not exactly one of result and error', status, body);
  // Past the nesting limit the body is refused before it is parsed, so its id is not read: JSON-RPC's null id.
  const unread = r.id === null && r.error?.code === -32602 && /levels of nested/.test(String(r.error?.data?.details?.expected));
  if (r.id !== id && !unread) fail(`id ${JSON.stringify(r.id)}, the request's was ${JSON.stringify(id)}`, status, body);
  if (r.error) {
    if (!Number.isInteger(r.error.code)) fail('error.code is not an integer', status, body);
    if (r.error.code === -32603) fail('-32603 Internal error', status, body);
    if (typeof r.error.message !== 'string' || r.error.message === '') fail('an error without a message', status, body);
  }
  return r;
}

/** The service's envelope inside an MCP answer (a tool error's text, a -32602's data), judged by the REST oracle. */
function envelopeOf(r: Rpc, vendorCalls: number): Answer {
  if (r.error) {
    const data = r.error.data ?? {};
    const code = typeof data.code === 'string' ? data.code : 'PROTOCOL';
    const status = (ERROR_CATALOGUE as Record<string, { status: number }>)[code]?.status ?? 400;
    return { status, body: { success: false, error: { code, message: r.error.message, details: data.details ?? {} } }, vendorCalls };
  }
  const text = r.result?.content?.[0]?.text;
  if (typeof text !== 'string') fail('a result without text content', 200, r);
  if (!r.result.isError) return { status: 200, body: { success: true, data: text }, vendorCalls };
  let env: any;
  try {
    env = JSON.parse(text);
  } catch {
    fail('a tool error whose text is not the error envelope', 200, r);
  }
  const status = (ERROR_CATALOGUE as Record<string, { status: number }>)[env?.error?.code]?.status ?? 0;
  return { status, body: env, vendorCalls };
}

for (const [index, lp] of localPlatforms.entries()) {
  const platform = lp.platform.name;

  describe(`MCP fuzz ${platform}`, () => {
    const t = fuzzTarget(platform, lp.keys.owner);
    let nextId = 1;
    const counts = { valid: 0, oneFault: 0, malformed: 0 };

    afterAll(() => {
      console.log(`MCP fuzz ${platform} (seed ${SEED}, MCP_FUZZ_RUNS ${RUNS}): ${counts.valid} valid, ${counts.oneFault} one-fault, ${counts.malformed} malformed requests`);
    });

    /** One POST of a raw JSON-RPC body; the parsed answer and the vendor requests it caused. */
    async function post(raw: string): Promise<{ status: number; body: unknown; vendorCalls: number }> {
      const before = t.vendorCalls;
      const res = await t.h.app.request(`/v1/mcp/${platform}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${lp.keys.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: raw,
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = `<not JSON: ${text.slice(0, 200)}>`;
      }
      return { status: res.status, body, vendorCalls: t.vendorCalls - before };
    }

    async function callTool(name: string, args: unknown): Promise<{ rpc: Rpc; answer: Answer }> {
      const id = nextId++;
      const got = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }));
      const rpc = checkRpc(got.status, got.body, id);
      return { rpc, answer: envelopeOf(rpc, got.vendorCalls) };
    }

    it('tools/call over every tool: valid arguments never INTERNAL_ERROR, one fault is INVALID_PARAMETER naming it', async () => {
      for (const tool of Object.keys(lp.platform.tools)) {
        const entry = t.schemas.find((s) => s.name === tool);
        if (!entry) throw new Error(`GET /v1/tools/${platform} does not list ${tool}`);
        const found = (await t.h.rt.registry.find(platform, tool))!;
        const accept = (params: unknown) => found.tool.input.safeParse(params).success;
        const example = found.tool.example.input as Record<string, unknown>;
        const numRuns = Math.max(1, Math.ceil(RUNS / 2));
        const seed = (SEED ^ (index * 7919)) + tool.length * 131 + tool.charCodeAt(0);
        const label = `${platform}/${tool}`;
        try {
          await fc.assert(
            fc.asyncProperty(inputArb(entry.input_schema, example), async (params) => {
              const { rpc, answer } = await callTool(tool, params);
              counts.valid += 1;
              // A protocol error for valid arguments is not an answer the model can act on.
              if (rpc.error) fail('a protocol error for valid arguments', 200, rpc);
              // The vendor's own refusals of valid inputs (a record not in the trash) are the REST suite's to judge (suite.ts).
              if (answer.body.success === false && answer.body.error.code !== 'INTERNAL_ERROR' && answer.body.error.details?.upstream_status !== undefined) checkEnvelope({ ...answer, body: { ...answer.body, error: { ...answer.body.error, details: { parameter: '(vendor)', ...answer.body.error.details } } } });
              else checkValid(answer);
            }),
            { seed, numRuns, endOnFailure: true },
          );
          await fc.assert(
            fc.asyncProperty(invalidArb(entry.input_schema, example, accept), async (c: InvalidCase) => {
              const { answer } = await callTool(tool, c.params);
              counts.oneFault += 1;
              checkInvalid(answer, c);
            }),
            { seed: seed + 1, numRuns, endOnFailure: true },
          );
        } catch (err) {
          (err as Error).message = `${label}: ${(err as Error).message}\nReproduce: FUZZ_SEED=${SEED} MCP_FUZZ_RUNS=${RUNS} npx vitest run test/fuzz/mcp.test.ts -t "${platform}"`;
          throw err;
        }
      }
    }, 600_000);

    it('malformed JSON-RPC requests: never 500 or -32603, always a well-formed JSON-RPC error', async () => {
      const tool = Object.keys(lp.platform.tools)[0]!;
      const fixed: { raw: string; id: unknown; code?: number }[] = [
        { raw: '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", ', id: null, code: -32700 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call' }), id: 2, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: [] }), id: 3, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 42, arguments: {} } }), id: 4, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: tool, arguments: null } }), id: 5, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: tool, arguments: 'x' } }), id: 6, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'noSuchTool', arguments: {} } }), id: 7, code: -32602 },
        { raw: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/nope', params: {} }), id: 8, code: -32601 },
        { raw: `{"jsonrpc": "2.0", "id": 9, "id": 9, "method": "tools/call", "params": {"name": "${tool}", "arguments": {}}}`, id: null, code: -32600 },
      ];
      for (const f of fixed) {
        const got = await post(f.raw);
        counts.malformed += 1;
        const rpc = checkRpc(got.status, got.body, f.id);
        expect(rpc.error?.code, f.raw).toBe(f.code);
        expect(got.vendorCalls).toBe(0);
      }
      // Generated: any JSON as params, name or arguments of a tools/call with an id.
      const anyJson = fc.jsonValue({ maxDepth: 4 });
      const shapes = fc.oneof(
        anyJson.map((params) => ({ params })),
        fc.tuple(anyJson, fc.constantFrom(tool, 'noSuchTool')).map(([args, name]) => ({ params: { name, arguments: args } })),
        anyJson.map((name) => ({ params: { name, arguments: {} } })),
        fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 4 }).map((params) => ({ params: { name: tool, ...params } })),
      );
      await fc.assert(
        fc.asyncProperty(shapes, fc.integer({ min: 1, max: 1e9 }), async (shape, id) => {
          const got = await post(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', ...shape }));
          counts.malformed += 1;
          checkRpc(got.status, got.body, id);
        }),
        { seed: SEED + index, numRuns: MALFORMED_RUNS, endOnFailure: true },
      );
    }, 300_000);
  });
}
