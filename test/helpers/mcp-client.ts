import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import { startLocal } from '../../infra/local/server';

type Local = Awaited<ReturnType<typeof startLocal>>;

/**
 * The official SDK client against the local server over a real socket: starts the server before
 * the file's tests, closes every client it connected and the server after them.
 */
export function localMcp(defaultKey: string) {
  let local: Local | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await new Promise<void>((resolve) => local!.server.close(() => resolve()));
  });
  return {
    get local(): Local {
      return local!;
    },
    /** A connected client of the endpoint at `path`, sending `key` as bearer (none when null). */
    async connect(path: string, key: string | null = defaultKey): Promise<Client> {
      const transport = new StreamableHTTPClientTransport(new URL(`${local!.base}${path}`), {
        requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
      });
      const client = new Client({ name: 'test-host', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
  };
}

/** The text of an MCP tool result's first content block. */
export const resultText = (r: unknown) => (r as { content: { type: string; text: string }[] }).content[0]!.text;
