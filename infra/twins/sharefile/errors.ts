import * as kit from '../kit';

/** The .NET HttpStatusCode names ShareFile puts in `code` (docs/vendors/sharefile.md#conventions SDK ODataRequestException). */
const CODES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  429: 'TooManyRequests',
  500: 'InternalServerError',
};

/** ShareFile's error body: {code, message:{lang, value}, reason, errorLog}. */
export class SfHttpError extends kit.TwinHttpError {
  constructor(status: number, message: string, reason = '', headers: Record<string, string> = {}) {
    super(status, { code: CODES[status] ?? String(status), message: { lang: 'en-US', value: message }, reason, errorLog: [] }, headers, message);
  }
}

export const badRequest = (message: string) => new SfHttpError(400, message, 'Invalid request');
export const forbidden = (message: string) => new SfHttpError(403, message, 'Access denied');
export const notFound = (message: string) => new SfHttpError(404, message, 'Not found');
export const conflict = (message: string) => new SfHttpError(409, message, 'Conflict');
