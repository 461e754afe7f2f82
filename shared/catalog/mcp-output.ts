/**
 * What an MCP tool result carries as `structuredContent`, per endpoint (docs/mcp-output.md).
 *
 * Structured-first hosts (Claude Code, VS Code) hand their model `JSON.stringify(structuredContent)`
 * whenever a result has it, and drop the text; content-first hosts (claude.ai, ChatGPT) hand it the
 * text. So by default a result's structured form is the compact text itself, `{"text": "…"}`, under
 * this one small output schema: every host's model reads the compact rendering. The typed result
 * (the tool's `format=json` JSON, under its generated output schema) is for clients that ask for it
 * on the endpoint (`?format=json`), where tools/list carries the typed schemas instead.
 */
import type { JsonSchema } from './catalog';

/** The output schema of every tool on a default MCP endpoint: the result as its compact text. */
export const COMPACT_OUTPUT_SCHEMA: JsonSchema & { type: 'object' } = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
};

/** The structuredContent of a result on a default MCP endpoint: its text, as the text content carries it. */
export const compactStructured = (text: string): { text: string } => ({ text });
