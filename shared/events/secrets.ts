import { ToolError } from '../core/errors';
import { readSecureKey } from '../aws/ssm';

/**
 * A secret of the event inbox (a vendor app's signing secret, a developer key, a webhook signature
 * key): given in the environment as `<NAME>` for local runs, or as `<NAME>_PARAMETER`, the name of
 * an SSM Parameter Store SecureString — how a deployment keeps it (serverless.yml). A parameter is
 * read on first use and kept for the container's life (shared/aws/ssm.ts caches it).
 */
export type SecretSource = { value: string } | { parameter: string };

type Env = Record<string, string | undefined>;

/** `<name>` (the value) wins over `<name>_PARAMETER` (where it is); neither set: undefined. */
export function secretFrom(env: Env, name: string): SecretSource | undefined {
  const value = env[name];
  if (value) return { value };
  const parameter = env[`${name}_PARAMETER`]?.trim();
  return parameter ? { parameter } : undefined;
}

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
