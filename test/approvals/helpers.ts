import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { SANDBOX_KEYS, type Twin } from '../../infra/twins/kit';
import { Browser, localServer } from '../identity/helpers';

/**
 * A local server whose tenant's key holds every write for a person's approval (`approval:
 * writes`), with a dbapp account connected through the sign-in page: the approval tests' start.
 * The vault key and the public base are stubbed in the environment (vi.unstubAllEnvs undoes them).
 */
export async function heldWritesServer(tenant: string, endUser: string): Promise<{ s: Awaited<ReturnType<typeof localServer>>; twin: Twin; key: string; connection: string }> {
  const vaultKey = randomBytes(32).toString('base64');
  vi.stubEnv('VAULT_KEY', vaultKey);
  const s = await localServer({ VAULT_KEY: vaultKey });
  vi.stubEnv('PUBLIC_BASE_URL', s.base);
  const twin = s.twins.dbapp as unknown as Twin;
  const key = (await s.createKey(tenant, { platforms: ['dbapp'], approval: 'writes' } as never)).key;
  const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: endUser, auth: 'api_key' } });
  await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
  return { s, twin, key, connection: created.body.data.connection.id };
}
