/**
 * Test-only tools and a prompt the official conformance suite calls by name (the diagnostic tools
 * of its server-stateless scenario, its multi round-trip `test_input_required_result_*` tools, its
 * JSON Schema 2020-12 tool), served on the same protocol core and HTTP edge as the production
 * endpoints (shared/http/mcp.ts, McpScope.source): the suite then judges our MRTR code, not a copy.
 * Every input request goes through the production helpers (askForm, InputRequired, sealed state).
 */
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolSource } from '../../shared/mcp/list';
import { askForm, canElicit, InputRequired, missingCapability, type InputRequest, type InputRound } from '../../shared/mcp/input';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const noArgs = { type: 'object', properties: {} } as const;
const form = (message: string, properties: Record<string, unknown>, required: string[]) => ({ message, requestedSchema: { type: 'object', properties, required } });
const elicit = (message: string, properties: Record<string, unknown>, required: string[]): InputRequest => ({ method: 'elicitation/create', params: form(message, properties, required) });
const sample = (question: string, maxTokens: number): InputRequest => ({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens } });
const ROOTS: InputRequest = { method: 'roots/list', params: {} };

/** Asks for every request not answered yet (with `state` for the next round), else returns the answers. */
function gather(round: InputRound | undefined, requests: Record<string, InputRequest>, state?: unknown): Record<string, any> {
  const responses = round?.responses ?? {};
  const missing = Object.fromEntries(Object.entries(requests).filter(([key]) => responses[key] === undefined));
  if (Object.keys(missing).length) throw new InputRequired(missing, state);
  return responses as Record<string, any>;
}

/** The text a sampling answer carries. */
const sampled = (r: any) => (typeof r?.content?.text === 'string' ? r.content.text : JSON.stringify(r?.content ?? null));

const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' }, contactMethod: { type: 'string', enum: ['phone', 'email'] }, phone: { type: 'string' }, email: { type: 'string' } },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

type Handler = (args: Record<string, unknown>, round: InputRound | undefined) => Promise<CallToolResult> | CallToolResult;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TOOLS: Record<string, { description: string; inputSchema?: Record<string, unknown>; task?: 'optional' | 'required'; run: Handler }> = {
  // The Tasks extension's fixtures (its tasks-* scenarios): one sync tool, the others may run as tasks.
  greet: { description: 'Greets by name, at once (never a task).', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, run: (a) => text(`Hello, ${String(a.name ?? 'world')}!`) },
  slow_compute: {
    description: 'Sleeps `seconds` seconds, then answers: a task.',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number' } } },
    task: 'optional',
    run: async (a) => {
      await sleep(Math.min(30, Math.max(0, Number(a.seconds ?? 1))) * 1000);
      return text(`computed after ${String(a.seconds ?? 1)} s`);
    },
  },
  failing_job: {
    description: 'Ends with a tool error after a second: a task (required).',
    task: 'required',
    run: async () => {
      await sleep(1000);
      return { isError: true, content: [{ type: 'text', text: 'the job failed, as it always does' }] };
    },
  },
  protocol_error_job: {
    description: 'Fails with a protocol error: a task.',
    task: 'optional',
    run: async () => {
      await sleep(100);
      throw new Error('the job crashed');
    },
  },
  confirm_delete: {
    description: 'Asks for a confirmation inside its task, then completes.',
    task: 'optional',
    run: (_a, round) => text(`deleted: ${JSON.stringify(gather(round, { confirm: elicit('Delete it?', { ok: { type: 'boolean' } }, ['ok']) }).confirm?.content ?? null)}`),
  },
  multi_input: {
    description: 'Asks for two answers at once inside its task, then completes.',
    task: 'optional',
    run: (_a, round) => {
      const all = gather(round, { first: elicit('First?', { v: { type: 'string' } }, ['v']), second: elicit('Second?', { v: { type: 'string' } }, ['v']) });
      return text(`${String(all.first?.content?.v)} ${String(all.second?.content?.v)}`);
    },
  },
  test_tool_with_task: {
    description: 'Asks for a name (a round before any task), then runs as a task that greets it.',
    task: 'required',
    run: async (_a, round) => {
      const name = String((round?.responses.user_name as any)?.content?.name ?? '');
      await sleep(200);
      return text(`Hello, ${name}! (from a task)`);
    },
  },
  test_missing_capability: {
    description: 'Needs the sampling capability: refused with -32021 when the client did not declare it.',
    run: (_a, round) => {
      if (!round?.capabilities.sampling) throw missingCapability({ sampling: {} }, 'this tool asks the client for a sampling; declare "sampling": {}.');
      return text('the client declared sampling');
    },
  },
  test_streaming_elicitation: {
    description: 'Asks for a name by a form elicitation (an input_required result, never a request on the stream).',
    run: (_a, round) => text(`Hello, ${askForm(round, 'name', form('What is your name?', { name: { type: 'string' } }, ['name'])).content?.name as string}!`),
  },
  test_logging_tool: { description: 'Logs nothing unless the request sets a log level; answers at once.', run: () => text('done, no log requested') },
  test_input_required_result_elicitation: {
    description: 'Round 1 asks for a name (elicitation); round 2 greets.',
    run: (_a, round) => {
      const answer = askForm(round, 'user_name', form('What is your name?', { name: { type: 'string' } }, ['name']));
      return text(`Hello, ${String(answer.content?.name ?? 'stranger')}!`);
    },
  },
  test_input_required_result_sampling: {
    description: 'Round 1 asks the client for a sampling; round 2 answers with its text.',
    run: (_a, round) => text(`The model said: ${sampled(gather(round, { capital_question: sample('What is the capital of France?', 100) }).capital_question)}`),
  },
  test_input_required_result_list_roots: {
    description: 'Round 1 asks the client for its roots; round 2 names them.',
    run: (_a, round) => {
      const roots = (gather(round, { client_roots: ROOTS }).client_roots?.roots ?? []) as { uri: string }[];
      return text(`Roots: ${roots.map((r) => r.uri).join(', ') || '(none)'}`);
    },
  },
  test_input_required_result_request_state: {
    description: 'Round 1 asks for a confirmation and keeps a sealed state; round 2 checks the state.',
    run: (_a, round) => {
      if (round?.state === 'confirm-round' && round.responses.confirm !== undefined) return text('state-ok: confirmed');
      throw new InputRequired({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, 'confirm-round');
    },
  },
  test_input_required_result_multiple_inputs: {
    description: 'Round 1 asks for a name, a sampling and the roots at once; round 2 completes.',
    run: (_a, round) => {
      const all = gather(round, { user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']), greeting: sample('Generate a greeting', 50), client_roots: ROOTS }, 'multiple');
      return text(`${sampled(all.greeting)} ${String(all.user_name?.content?.name ?? '')}`.trim());
    },
  },
  test_input_required_result_multi_round: {
    description: 'Asks for a name, then a colour (the state says which round), then completes.',
    run: (_a, round) => {
      const step = (round?.state as { step?: number } | undefined)?.step ?? 1;
      if (step === 1) {
        if (round?.responses.step1 === undefined) throw new InputRequired({ step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }, ['name']) }, { step: 1 });
        throw new InputRequired({ step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, { step: 2, name: (round.responses.step1 as any)?.content?.name });
      }
      if (round?.responses.step2 === undefined) throw new InputRequired({ step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']) }, round?.state);
      return text(`${String((round.state as any).name)} likes ${String((round.responses.step2 as any)?.content?.color)}`);
    },
  },
  test_input_required_result_tampered_state: {
    description: 'Round 1 hands out a sealed state; a retry with an altered state is refused (-32602).',
    run: (_a, round) => {
      if (round?.state === 'sealed' && round.responses.confirm !== undefined) return text('state-ok');
      throw new InputRequired({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) }, 'sealed');
    },
  },
  test_input_required_result_capabilities: {
    description: 'Asks only for what the client declared: an elicitation, a sampling, or both.',
    run: (_a, round) => {
      const caps = round?.capabilities ?? {};
      const wanted: Record<string, InputRequest> = {
        ...(canElicit(caps, 'form') ? { user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']) } : {}),
        ...(caps.sampling ? { greeting: sample('Generate a greeting', 50) } : {}),
      };
      if (!Object.keys(wanted).length) throw missingCapability({ elicitation: {} }, 'this tool needs elicitation or sampling.');
      gather(round, wanted);
      return text('capabilities respected');
    },
  },
  json_schema_2020_12_tool: { description: 'Tool with JSON Schema 2020-12 features', inputSchema: JSON_SCHEMA_2020_12, run: () => text('schema accepted') },
};

const PROMPT = 'test_input_required_result_prompt';

/** The fixture as an endpoint's tool source (McpScope.source). */
export const conformanceFixture: McpToolSource = {
  tools: () =>
    Object.entries(TOOLS).map(([name, t]): McpTool => ({ name, description: t.description, inputSchema: (t.inputSchema ?? noArgs) as McpTool['inputSchema'], ...(t.task ? { execution: { taskSupport: t.task } } : {}) })),
  call: (name, args, round) => {
    const tool = Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
    return tool ? Promise.resolve().then(() => tool.run(args, round)) : undefined;
  },
  taskSupport: (name) => (Object.hasOwn(TOOLS, name) ? TOOLS[name]!.task : undefined),
  // test_tool_with_task gathers its name by a round before the task (MRTR, then a task on the final round).
  runsAsTask: (name, round) => {
    if (name !== 'test_tool_with_task' || round?.responses.user_name !== undefined) return true;
    throw new InputRequired({ user_name: elicit('What is your name?', { name: { type: 'string' } }, ['name']) });
  },
  prompts: () => [{ name: PROMPT, description: 'Asks which context the prompt should use, then answers a prompt with it.' }],
  getPrompt: (name, _args, round) => {
    if (name !== PROMPT) return undefined;
    return Promise.resolve().then(() => {
      const answer = gather(round, { user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }, ['context']) });
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${String(answer.user_context?.content?.context ?? '')}` } }] };
    });
  },
};
