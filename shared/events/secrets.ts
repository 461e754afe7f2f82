import { ToolError } from '../core/errors';
import { readSecureKey } from '../aws/ssm';
import type { SecretSource } from '../core/events-config';

export { secretFrom, type SecretSource } from '../core/events-config';

/**
 * The secret's value. A parameter that cannot be read is the deployment's fault, never the
 * caller's or the vendor's: INTERNAL_ERROR naming the parameter (never its value), so a vendor
 * retries the delivery once the operator has fixed it.
 */
export async function readSecret(source: SecretSource): Promise<string> {
  if ('value' in source) return source.value;
  try {
    return await readSecureKey(source.parameter);
  } catch (err) {
    throw new ToolError('INTERNAL_ERROR', `The event inbox could not read its secret from the SSM parameter "${source.parameter}" (${err instanceof Error ? err.message : 'unknown error'}). Ask the operator to check it is a SecureString this function may read.`, {
      parameter: source.parameter,
    });
  }
}
