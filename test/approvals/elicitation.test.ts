import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Twin } from '../../infra/twins/kit';
import type { localServer } from '../identity/helpers';
import { heldWritesServer } from './helpers';

const ADMIN = 'adm_test_credential';
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } as const;

/**
 * A held write (`approval: writes`) asked of a person by form elicitation, for a 2026-07-28 client
 * that declared it: the official v2 client answers the form; the twin counts what reached the
 * vendor. Accept runs the call exactly once; decline or cancel runs nothing and rejects the
 * request; a replayed or tampered requestState, or other arguments, run nothing. Clients that can
 * only open URLs keep the FORBIDDEN answer with the approval page's link.
 */
describe('approval by form elicitation (MCP 2026-07-28)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let twin: Twin;
  let key: string;
  let connection: string;
  const clients: Client[] = [];
  const vendorCalls = () => twin.requests.entries.length;
  const twinWrites = () => twin.requests.entries.filter((e) => e.method !== 'GET').length;

  beforeAll(async () => {
    ({ s, twin, key, connection } = await heldWritesServer('acme-elicit', 'user-e'));
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    vi.unstubAllEnvs();
    await s.close();
  });

  /** The official 2.x client pinned to 2026-07-28, answering each elicitation with `elicit`. */
  async function connect(elicitation: { form?: Record<string, never>; url?: Record<string, never> } | undefined, elicit: (params: Record<string, any>) => Record<string, unknown>): Promise<Client> {
    const client = new Client({ name: 'approving-host', version: '2.0.0' }, { capabilities: elicitation ? { elicitation } : {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    if (elicitation) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params as Record<string, any>) as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.base}/v1/mcp/dbapp`), { requestInit: { headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection } } }));
    clients.push(client);
    return client;
  }

  /** The tenant's newest approval request, as the admin API shows it. */
  const newest = async () => (await s.api('GET', '/v1/admin/approvals?tenant=acme-elicit&limit=1', { key: ADMIN })).body.data.approvals[0];
  const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0]!.text).error;

  it('accept: the form shows the dry-run preview, nothing reaches the vendor before it, the call runs exactly once after', async () => {
    const before = { calls: vendorCalls(), writes: twinWrites() };
    const asked: Record<string, any>[] = [];
    let seenBeforeAnswer = -1;
    const client = await connect({ form: {} }, (params) => {
      asked.push(params);
      seenBeforeAnswer = vendorCalls() - before.calls;
      return { action: 'accept', content: {} };
    });
    const result = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Elicited workspace', type: 'open' } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'form', requestedSchema: { type: 'object', properties: {} } });
    expect(asked[0]!.message).toMatch(/^Approve this write\? dbapp\/createWorkspace/);
    expect(asked[0]!.message).toContain('dry run of dbapp/createWorkspace: 1 write planned, nothing sent');
    expect(asked[0]!.message).toContain('Elicited workspace');
    expect(seenBeforeAnswer).toBe(0);
    expect(result.isError).toBeFalsy();
    expect((result as any).content[0].text).toContain('Elicited workspace');
    expect(twinWrites() - before.writes).toBe(1);
    const approval = await newest();
    expect(approval).toMatchObject({ status: 'executed', decided_by: 'elicitation', tool: 'createWorkspace' });
    // The lifecycle is in the audit trail: requested, approved by the person answering, executed.
    const audit = await s.api('GET', `/v1/admin/audit?tenant=acme-elicit&limit=50`, { key: ADMIN });
    const steps = audit.body.data.records.filter((r: any) => r.kind === 'approval' && r.approval_id === approval.id).map((r: any) => `${r.outcome}:${r.by ?? ''}:${r.surface}`);
    expect(steps).toEqual(expect.arrayContaining(['requested::mcp', 'approved:elicitation:mcp', 'executed::mcp']));
    expect(JSON.stringify(audit.body)).not.toContain('Elicited workspace');
  });

  it('decline and cancel: nothing runs, the request is rejected, the result says so', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const before = { calls: vendorCalls(), writes: twinWrites() };
      const client = await connect({ form: {} }, () => ({ action }));
      const result = await client.callTool({ name: 'createWorkspace', arguments: { name: `Declined ${action}`, type: 'open' } });
      expect(result.isError).toBe(true);
      const err = errorOf(result);
      expect(err).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'approval_rejected', approval_id: expect.stringMatching(/^apr_/) } });
      expect(err.message).toContain(action === 'decline' ? 'declined' : 'cancelled');
      expect(err.message).toContain('nothing was sent to the vendor');
      expect(vendorCalls() - before.calls).toBe(0);
      expect(twinWrites() - before.writes).toBe(0);
      expect(await newest()).toMatchObject({ id: err.details.approval_id, status: 'rejected', decided_by: 'elicitation' });
    }
  });

  it('a client that can only open URLs, and one that declared no elicitation, keep FORBIDDEN approval_required with the link', async () => {
    for (const elicitation of [{ url: {} }, undefined]) {
      const before = twinWrites();
      const client = await connect(elicitation, () => {
        throw new Error('no elicitation expected');
      });
      const result = await client.callTool({ name: 'createWorkspace', arguments: { name: 'Link only', type: 'open' } });
      expect(result.isError).toBe(true);
      expect(errorOf(result).details).toMatchObject({ reason: 'approval_required', approval_url: expect.stringContaining('/v1/approve/'), approval_id: expect.stringMatching(/^apr_/) });
      expect(twinWrites()).toBe(before);
    }
  });

  describe('the requestState of an approval round, on the wire', () => {
    const post = (params: Record<string, unknown>) =>
      fetch(`${s.base}/v1/mcp/dbapp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'createWorkspace' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'createWorkspace', ...params, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } }),
      }).then(async (r) => (await r.json()) as any);
    const accept = { approval: { action: 'accept', content: {} } };

    it('a replayed state, a tampered one and other arguments are refused, and only the one accepted retry reaches the vendor', async () => {
      const args = { name: 'Wire workspace', type: 'open' };
      const before = { calls: vendorCalls(), writes: twinWrites() };
      const first = await post({ arguments: args });
      expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form' } } }, requestState: expect.any(String) });
      const state = first.result.requestState as string;

      // Other arguments with the state: it does not open, nothing runs.
      const swapped = await post({ arguments: { ...args, name: 'Swapped workspace' }, inputResponses: accept, requestState: state });
      expect(swapped.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState/) });
      // Tampered: one byte of the sealed state flipped.
      const flipped = Buffer.from(state, 'base64url');
      flipped.writeUInt8(flipped.readUInt8(flipped.length - 5) ^ 1, flipped.length - 5);
      const tampered = await post({ arguments: args, inputResponses: accept, requestState: flipped.toString('base64url') });
      expect(tampered.error.code).toBe(-32602);
      // The retry without an answer asks again (same request), running nothing.
      const unanswered = await post({ arguments: args, requestState: state });
      expect(unanswered.result).toMatchObject({ resultType: 'input_required', inputRequests: { approval: { params: { message: first.result.inputRequests.approval.params.message } } } });
      expect(vendorCalls() - before.calls).toBe(0);

      const ran = await post({ arguments: args, inputResponses: accept, requestState: state });
      expect(ran.result.isError).toBeFalsy();
      expect(ran.result.content[0].text).toContain('Wire workspace');
      expect(twinWrites() - before.writes).toBe(1);

      // The same state and answer again: the approval was spent, nothing runs.
      const replay = await post({ arguments: args, inputResponses: accept, requestState: state });
      expect(replay.result.isError).toBe(true);
      expect(JSON.parse(replay.result.content[0].text).error.details.reason).toBe('approval_used');
      expect(twinWrites() - before.writes).toBe(1);
    });

    it('a declined round cannot be turned into an accepted one by replaying its state', async () => {
      const args = { name: 'Declined then replayed', type: 'open' };
      const before = vendorCalls();
      const state = (await post({ arguments: args })).result.requestState as string;
      const declined = await post({ arguments: args, inputResponses: { approval: { action: 'decline' } }, requestState: state });
      expect(JSON.parse(declined.result.content[0].text).error.details.reason).toBe('approval_rejected');
      const replay = await post({ arguments: args, inputResponses: accept, requestState: state });
      expect(JSON.parse(replay.result.content[0].text).error.details.reason).toBe('approval_rejected');
      expect(vendorCalls()).toBe(before);
    });
  });
});
