import { ToolError } from '../core/errors';

// RFC 6750 b64token: API keys and JWTs both fit.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

export type Auth = { ok: true; key: string } | { ok: false; error: ToolError };

/** Checks the Authorization header before anything else runs. */
export function bearerKey(header: string | undefined): Auth {
  if (!header) {
    return { ok: false, error: new ToolError('UNAUTHORIZED', 'Missing Authorization header. Send "Authorization: Bearer <your platform API key>".', { header: 'Authorization' }) };
  }
  const match = BEARER.exec(header.trim());
  if (!match) {
    return {
      ok: false,
      error: new ToolError('UNAUTHORIZED', 'Malformed Authorization header. Expected "Bearer <key>" with the key as one token (letters, digits, - . _ ~ + /).', {
        header: 'Authorization',
      }),
    };
  }
  return { ok: true, key: match[1]! };
}
