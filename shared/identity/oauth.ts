import { createHash, randomBytes } from 'node:crypto';
import { ToolError } from '../core/errors';
import { readBounded } from '../core/json-body';
import { log } from '../core/log';
import { readSecureKey } from '../aws/ssm';
import type { OAuthClient } from './config';
import type { Credential } from './connections';
import type { OAuthProvider, VendorAccount } from './providers';

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function clientSecret(client: OAuthClient): Promise<string> {
  if (client.secret) return client.secret;
  if (client.secretParameter) return readSecureKey(client.secretParameter);
  throw new ToolError('INTERNAL_ERROR', 'This deployment has no OAuth client secret for the platform (set <PLATFORM>_OAUTH_CLIENT_SECRET or _SECRET_PARAMETER).', {});
}

/** The vendor's authorization page for one connect attempt. */
export function authorizationUrl(provider: OAuthProvider, base: string, client: OAuthClient, redirectUri: string, state: string, challenge?: string): string {
  const url = new URL(base);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  if (provider.scopes.length) url.searchParams.set('scope', provider.scopes.join(provider.scopeSeparator));
  if (challenge) {
    url.searchParams.set('code_challenge', challenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/** Why a token request failed: the vendor refused the grant (reconnect), or it could not be reached (retry). */
export class TokenError extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One form-encoded POST to the vendor's token endpoint (RFC 6749 §4.1.3, §6), with the client's
 * id and secret in the body as all three vendors document. Nothing of the answer is logged.
 */
export async function tokenRequest(fetcher: typeof fetch, url: string, form: Record<string, string>, timeoutMs: number, now: number): Promise<Extract<Credential, { kind: 'oauth' }>> {
  let res: Response;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    log('warn', 'token endpoint unreachable', { grant: form.grant_type, error: err instanceof Error ? err.name : 'unknown' });
    throw new TokenError(false, 'The vendor\'s token endpoint could not be reached.');
  }
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!res.ok || typeof body?.access_token !== 'string') {
    // 400/401 are the vendor's refusal of the grant (RFC 6749 §5.2); anything else is an outage.
    const refused = res.status === 400 || res.status === 401;
    const code = typeof body?.error === 'string' ? body.error : typeof body?.status === 'string' ? body.status : `HTTP ${res.status}`;
    log('warn', 'token request refused', { grant: form.grant_type, status: res.status, code });
    throw new TokenError(refused, `The vendor answered ${code} to the ${form.grant_type} grant.`);
  }
  const expiresIn = Number(body.expires_in);
  return {
    kind: 'oauth',
    access_token: body.access_token,
    ...(typeof body.refresh_token === 'string' ? { refresh_token: body.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expires_at: now + expiresIn * 1000 } : {}),
  };
}

/**
 * The connected account's own name at the vendor (provider.account), read once after the code
 * exchange for the pages to show. Best effort: a vendor that does not answer within the timeout,
 * or answers otherwise than expected, leaves the account unnamed; the connection works either way.
 */
export async function vendorAccount(fetcher: typeof fetch, provider: OAuthProvider, accessToken: string, apiBase: string | undefined, timeoutMs: number): Promise<VendorAccount | undefined> {
  const url = provider.account?.url(accessToken, apiBase);
  if (!provider.account || !url) return undefined;
  try {
    const res = await fetcher(url, { headers: { accept: 'application/json', ...(provider.account.scheme ? { authorization: `${provider.account.scheme} ${accessToken}` } : {}) }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    // A name needs little: a larger answer leaves the account unnamed.
    const body = await readBounded(res, 64 * 1024);
    if (!body) return undefined;
    const read = provider.account.read(JSON.parse(Buffer.from(body).toString('utf8')));
    // Short strings only: what a page shows in a line.
    const out = Object.fromEntries(Object.entries(read).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0).map(([k, v]) => [k, v.slice(0, 200)]));
    return Object.keys(out).length ? out : undefined;
  } catch {
    return undefined;
  }
}

