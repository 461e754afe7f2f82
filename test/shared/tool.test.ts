import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { platformTool } from '../../shared/core/tool';

describe('platformTool', () => {
  it('fixes the platform of every tool it defines and keeps the rest as given', async () => {
    const acmeTool = platformTool<{ hello(name: string): string }>('acme');
    const tool = acmeTool({
      name: 'greet',
      description: 'Greets.',
      input: z.strictObject({ name: z.string() }),
      annotations: { readOnly: true, destructive: false, idempotent: true },
      run: async ({ name }, ctx) => ctx.client.hello(name),
      text: (r) => r,
      example: { input: { name: 'Ada' }, result: 'hello Ada' },
    });
    expect(tool.platform).toBe('acme');
    expect(tool.name).toBe('greet');
    const ctx = { client: { hello: (n: string) => `hello ${n}` }, keyHash: 'h', store: undefined as never, config: undefined as never, deadline: 0 };
    expect(await tool.run({ name: 'Ada' }, ctx)).toBe('hello Ada');
  });
});
