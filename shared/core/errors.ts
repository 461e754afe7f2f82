/** The one error catalogue of the service. README's "Errors" table is checked against it by a test. */
export const ERROR_CATALOGUE = {
  INVALID_PARAMETER: { status: 400, meaning: 'A parameter is missing or invalid; details name the parameter and what was expected.' },
  UNAUTHORIZED: { status: 401, meaning: 'The Authorization header is missing or malformed, or the platform rejected the key.' },
  FORBIDDEN: { status: 403, meaning: 'The key is valid but lacks permission for this operation.' },
  NOT_FOUND: { status: 404, meaning: 'Unknown platform or tool, or the resource does not exist (or is not shared with the key).' },
  RATE_LIMITED: { status: 429, meaning: 'Too many requests, for this service or the platform; retry after details.retry_after seconds.' },
  INTERNAL_ERROR: { status: 500, meaning: 'The platform failed, timed out or answered garbage, or the service hit an unexpected error.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export type ErrorDetails = Record<string, unknown>;

export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** Response headers that belong to the error (Retry-After on RATE_LIMITED). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }
}

/** INVALID_PARAMETER with the two details every such error carries (set after `extra`, e.g. a vendor error's details, so those never override them). */
export function invalidParameter(parameter: string, expected: string, message: string, extra: ErrorDetails = {}): ToolError {
  return new ToolError('INVALID_PARAMETER', message, { ...extra, parameter, expected });
}

export function rateLimited(retryAfter: number, message: string, extra: ErrorDetails = {}): ToolError {
  const seconds = Math.max(1, Math.ceil(retryAfter));
  return new ToolError('RATE_LIMITED', message, { retry_after: seconds, ...extra }, { 'Retry-After': String(seconds) });
}
