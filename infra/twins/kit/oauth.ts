import { createHash, randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Clock } from './clock';
import type { TwinHttpError } from './errors';

/**
 * The OAuth 2 authorization server every OAuth twin shares (RFC 6749 §4.1 authorization code,
 * §6 refresh; RFC 7636 PKCE when the client sends a challenge): the authorization page, the
 * code exchange and the refresh grant, with the vendor's lifetimes and refresh-token rules as
 * its dialect. Lifetimes can be shortened for tests and local runs (TWIN_OAUTH_ACCESS_SECONDS).
 */

/** The app registration every twin knows: what the local server and the tests use. */
export const SANDBOX_OAUTH_CLIENT = { id: 'tes-sandbox-client', secret: 'tes-sandbox-secret' } as const;

/** Someone who can sign in on the twin's authorization page. */
export interface OAuthAccount {
  /** The twin's own id of the user (what its auth middleware resolves). */
  id: string;
  label: string;
}

export interface OAuthDialect {
  /** The vendor's name on the authorization page. */
  vendor: string;
  /** Access token lifetime (Podio 8 h, HubSpot 30 min, ShareFile 8 h). */
  accessSeconds: number;
  /** Refresh token lifetime; undefined: until revoked. */
  refreshSeconds?: number;
  /** A refresh answer carries a new refresh token and the old one stops working (Podio, ShareFile). */
  rotateRefresh: boolean;
  /** Who may sign in. */
  accounts(): OAuthAccount[];
  /** Extra query parameters of the redirect back to the app (ShareFile: the account's subdomain and hosts). */
  callbackExtras?(): Record<string, string>;
  /** Extra fields of a token answer (Podio: `ref`; ShareFile: subdomain, apicp, appcp). */
  tokenExtras?(account: string): Record<string, unknown>;
  /** The vendor's answer to a refused token request: `error` is RFC 6749's code (invalid_grant, invalid_client, …). */
  tokenError(status: number, error: string, description: string, grantType: string): TwinHttpError;
}

interface Code {
  client: string;
  redirectUri: string;
  account: string;
  expiresAt: number;
  challenge?: string;
}

/** An issued token: who it is for, and until when (null: no expiry). */
export interface Grant {
  account: string;
  expiresAt: number | null;
}

/** The token server of one twin. */
export class OAuthServer {
  private readonly codes = new Map<string, Code>();
  private readonly access = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly clients = new Map<string, string>([[SANDBOX_OAUTH_CLIENT.id, SANDBOX_OAUTH_CLIENT.secret]]);
  /** Grants served, by type: tests count refreshes under concurrency. */
  readonly counts = { authorizations: 0, codes: 0, refreshes: 0, revocations: 0 };
  private readonly accessSeconds: number;

  constructor(
    private readonly dialect: OAuthDialect,
    private readonly clock: Clock,
    opts: { accessSeconds?: number } = {},
  ) {
    this.accessSeconds = opts.accessSeconds ?? dialect.accessSeconds;
  }

  /** The account an access token acts for: undefined if unknown, 'expired' once past its lifetime. */
  resolve(token: string): { account: string; expiresAt: number | null } | 'expired' | undefined {
    const grant = this.access.get(token);
    if (!grant) return undefined;
    if (grant.expiresAt !== null && grant.expiresAt <= this.clock.now()) return 'expired';
    return grant;
  }

  /** Whether this server issued the refresh token (a twin with grants of its own routes the rest there). */
  knowsRefresh(token: string | undefined): boolean {
    return token !== undefined && this.refreshTokens.has(token);
  }

  /** Revokes a refresh token and the access tokens of its account issued with it (HubSpot's DELETE). */
  revokeRefresh(token: string): boolean {
    const grant = this.refreshTokens.get(token);
    if (!grant) return false;
    this.refreshTokens.delete(token);
    this.counts.revocations += 1;
    return true;
  }

  private issue(account: string, refreshToken?: string) {
    const now = this.clock.now();
    const access_token = randomBytes(24).toString('hex');
    this.access.set(access_token, { account, expiresAt: now + this.accessSeconds * 1000 });
    const refresh_token = refreshToken ?? randomBytes(24).toString('hex');
    if (!refreshToken) this.refreshTokens.set(refresh_token, { account, expiresAt: this.dialect.refreshSeconds ? now + this.dialect.refreshSeconds * 1000 : null });
    return { access_token, refresh_token, expires_in: this.accessSeconds, token_type: 'bearer', ...this.dialect.tokenExtras?.(account) };
  }

  private refused(p: Record<string, string>, error: string, description: string, status = 400): TwinHttpError {
    return this.dialect.tokenError(status, error, description, p.grant_type ?? '');
  }

  /**
   * The authorization_code and refresh_token grants of a token request (its form fields). A twin
   * with grants of its own (Podio: password, app) handles those itself and calls this for these two.
   */
  grant(p: Record<string, string>): Record<string, unknown> {
    const secret = this.clients.get(p.client_id ?? '');
    if (secret === undefined || p.client_secret !== secret) throw this.refused(p, 'invalid_client', 'Unknown client_id or wrong client_secret.', 401);
    if (p.grant_type === 'authorization_code') {
      const code = this.codes.get(p.code ?? '');
      // A code works once (RFC 6749 §4.1.2), for the client and redirect URI it was issued to.
      if (code) this.codes.delete(p.code!);
      if (!code || code.expiresAt <= this.clock.now() || code.client !== p.client_id) throw this.refused(p, 'invalid_grant', 'The authorization code is invalid, expired or already used.');
      if (code.redirectUri !== p.redirect_uri) throw this.refused(p, 'invalid_grant', 'redirect_uri does not match the one of the authorization request.');
      if (code.challenge !== undefined && createHash('sha256').update(p.code_verifier ?? '').digest('base64url') !== code.challenge) throw this.refused(p, 'invalid_grant', 'code_verifier does not match the code_challenge.');
      this.counts.codes += 1;
      return this.issue(code.account);
    }
    if (p.grant_type === 'refresh_token') {
      const token = p.refresh_token ?? '';
      const grant = this.refreshTokens.get(token);
      if (!grant || (grant.expiresAt !== null && grant.expiresAt <= this.clock.now())) throw this.refused(p, 'invalid_grant', 'The refresh token is invalid, expired or already used.');
      this.counts.refreshes += 1;
      if (!this.dialect.rotateRefresh) return this.issue(grant.account, token);
      this.refreshTokens.delete(token);
      return this.issue(grant.account);
    }
    throw this.refused(p, 'unsupported_grant_type', `grant_type must be authorization_code or refresh_token, got "${p.grant_type ?? ''}".`);
  }

  /** The form fields of a token request (form-encoded as RFC 6749 says; JSON also read). */
  static async form(c: Context): Promise<Record<string, string>> {
    const type = c.req.header('content-type') ?? '';
    const raw: Record<string, unknown> = /json/i.test(type) ? ((await c.req.json().catch(() => ({}))) as Record<string, unknown>) : /form/i.test(type) ? await c.req.parseBody() : {};
    return Object.fromEntries(Object.entries(raw).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
  }

  /** Mounts the token endpoint at `path` (a twin whose token endpoint serves only these grants). */
  tokenRoute(app: Hono<any>, path: string): void {
    app.post(path, async (c) => c.json(this.grant(await OAuthServer.form(c))));
  }

  /**
   * Mounts the authorization page at `path`: GET shows the sign-in and consent form, POST (the
   * form) redirects the browser back to the app with a code (or error=access_denied) and the state.
   */
  authorizePage(app: Hono<any>, path: string): void {
    app.get(path, (c) => {
      const q = c.req.query();
      const problem = this.checkRequest(q);
      if (problem) return c.html(htmlPage(`${this.dialect.vendor}: cannot authorize`, `<p>${esc(problem)}</p>`), 400);
      const hidden = ['client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method']
        .filter((k) => q[k] !== undefined)
        .map((k) => `<input type="hidden" name="${k}" value="${esc(q[k]!)}">`)
        .join('');
      const accounts = this.dialect.accounts().map((a, i) => `<label><input type="radio" name="account" value="${esc(a.id)}"${i === 0 ? ' checked' : ''}> ${esc(a.label)}</label><br>`).join('');
      return c.html(htmlPage(`Sign in to ${this.dialect.vendor}`, `<form id="consent" method="post" action="${esc(c.req.path)}">${hidden}<p>An app asks to access your ${esc(this.dialect.vendor)} account.</p>${accounts}<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form>`));
    });
    app.post(path, async (c) => {
      const f = await OAuthServer.form(c);
      const problem = this.checkRequest(f);
      if (problem) return c.html(htmlPage(`${this.dialect.vendor}: cannot authorize`, `<p>${esc(problem)}</p>`), 400);
      const back = new URL(f.redirect_uri!);
      if (f.state !== undefined) back.searchParams.set('state', f.state);
      const account = this.dialect.accounts().find((a) => a.id === f.account);
      if (f.decision !== 'allow' || !account) {
        back.searchParams.set('error', 'access_denied');
        return c.redirect(back.toString(), 302);
      }
      const code = randomBytes(20).toString('hex');
      this.codes.set(code, { client: f.client_id!, redirectUri: f.redirect_uri!, account: account.id, expiresAt: this.clock.now() + 10 * 60_000, ...(f.code_challenge ? { challenge: f.code_challenge } : {}) });
      this.counts.authorizations += 1;
      back.searchParams.set('code', code);
      for (const [k, v] of Object.entries(this.dialect.callbackExtras?.() ?? {})) back.searchParams.set(k, v);
      return c.redirect(back.toString(), 302);
    });
  }

  /** What is wrong with an authorization request, if anything (shown to the user, never redirected: RFC 6749 §4.1.2.1). */
  private checkRequest(q: Record<string, string | undefined>): string | undefined {
    if (!q.client_id || !this.clients.has(q.client_id)) return 'Unknown client_id: the app is not registered.';
    if (!q.redirect_uri || !/^https?:\/\//.test(q.redirect_uri)) return 'redirect_uri must be an absolute http(s) URL.';
    if (q.code_challenge !== undefined && q.code_challenge_method !== 'S256') return 'code_challenge_method must be S256.';
    return undefined;
  }
}

/** TWIN_OAUTH_ACCESS_SECONDS: every OAuth twin's access-token lifetime (short, to see refreshes locally). */
export function oauthLifetime(env: Record<string, string | undefined>): { accessSeconds?: number } {
  const raw = env.TWIN_OAUTH_ACCESS_SECONDS;
  if (raw === undefined || raw === '') return {};
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`TWIN_OAUTH_ACCESS_SECONDS must be a whole number ≥ 1, got "${raw}"`);
  return { accessSeconds: n };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const htmlPage = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body style="font-family:system-ui;max-width:32rem;margin:3rem auto"><h1>${esc(title)}</h1>${body}</body></html>`;
