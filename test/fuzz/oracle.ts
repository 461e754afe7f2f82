import { ERROR_CATALOGUE } from '../../shared/core/errors';
import type { InvalidCase } from './schema-arb';

/** One answer of the service as the fuzz suite judges it. */
export interface Answer {
  status: number;
  body: any;
  /** Vendor requests the call made (counted at the twin's door). */
  vendorCalls: number;
}

/** A broken oracle: thrown so fast-check reports (and shrinks) the case. */
export class OracleError extends Error {}

function fail(message: string, answer: Answer): never {
  throw new OracleError(`${message}\n  status ${answer.status}, ${answer.vendorCalls} vendor call(s), body ${JSON.stringify(answer.body).slice(0, 600)}`);
}

const sameKeys = (o: object, keys: string[]) => Object.keys(o).sort().join() === [...keys].sort().join();

/** Every answer: `{success:true, data}` with 200, or `{success:false, error:{code, message, details}}` with the catalogue's status. */
export function checkEnvelope(a: Answer): void {
  const b = a.body;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) fail('the answer is not an envelope object', a);
  if (b.success === true) {
    if (!sameKeys(b, ['success', 'data'])) fail('a success envelope has other keys than success and data', a);
    if (a.status !== 200) fail('a success envelope with a status other than 200', a);
    return;
  }
  if (b.success !== false || !sameKeys(b, ['success', 'error'])) fail('neither a success nor an error envelope', a);
  const e = b.error;
  if (e === null || typeof e !== 'object' || !sameKeys(e, ['code', 'message', 'details'])) fail('error is not {code, message, details}', a);
  const entry = (ERROR_CATALOGUE as Record<string, { status: number }>)[e.code];
  if (!entry) fail(`error code ${String(e.code)} is not in the catalogue`, a);
  if (a.status !== entry.status) fail(`${e.code} answered with HTTP ${a.status}, the catalogue says ${entry.status}`, a);
  if (typeof e.message !== 'string' || e.message === '') fail('an error without a message', a);
  if (e.details === null || typeof e.details !== 'object' || Array.isArray(e.details)) fail('error.details is not an object', a);
  // Our own validation names the parameter, and so does a vendor's 400 (upstream_status): the tool knows which of its inputs it sent.
  if (e.code === 'INVALID_PARAMETER' && !(typeof e.details.parameter === 'string' && e.details.parameter !== '')) {
    fail(`INVALID_PARAMETER without details.parameter${e.details.upstream_status !== undefined ? ' (a vendor 400: name the tool input it concerns)' : ''}`, a);
  }
}

/** A valid input: any catalogue answer but INTERNAL_ERROR, in a well-formed envelope. */
export function checkValid(a: Answer): void {
  checkEnvelope(a);
  if (a.body.success === false && a.body.error.code === 'INTERNAL_ERROR') fail('INTERNAL_ERROR on a valid input', a);
}

/** A broken input: INVALID_PARAMETER naming the broken parameter, and no vendor call. */
export function checkInvalid(a: Answer, c: Pick<InvalidCase, 'path' | 'deeper'> & { paths?: string[] }): void {
  checkEnvelope(a);
  if (a.body.success !== false || a.body.error.code !== 'INVALID_PARAMETER') fail(`expected INVALID_PARAMETER naming "${c.path}"`, a);
  const named: string = a.body.error.details.parameter;
  const allowed = [c.path, ...(c.paths ?? [])];
  // Past the nesting limit the service names the path where the limit is crossed: below the parameter (cut at 80 characters).
  const ok = allowed.includes(named) || (c.deeper === true && named.startsWith(`${c.path}.`));
  if (!ok) fail(`INVALID_PARAMETER named "${named}", expected ${allowed.map((p) => `"${p}"`).join(' or ')}${c.deeper ? ' (or a path below it)' : ''}`, a);
  if (a.vendorCalls !== 0) fail(`an invalid input reached the vendor (${a.vendorCalls} request(s))`, a);
}
