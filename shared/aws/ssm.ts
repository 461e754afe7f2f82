import { ToolError } from '../core/errors';
import { log } from '../core/log';

// Keys read once per container: SSM is called on the first use of each parameter only.
const cache = new Map<string, Promise<string>>();

/** Reads an API key from an SSM SecureString (decrypted). Other parameter types are refused. */
export function readSecureKey(name: string): Promise<string> {
  let pending = cache.get(name);
  if (!pending) {
    pending = fetchKey(name);
    cache.set(name, pending);
    // A failed read is not cached: the next invocation tries again.
    pending.catch(() => cache.delete(name));
  }
  return pending;
}

async function fetchKey(name: string): Promise<string> {
  // Loaded on first direct invocation only: HTTP calls never pay for the SSM client.
  const { SSMClient, GetParameterCommand } = await import('@aws-sdk/client-ssm');
  let parameter;
  try {
    ({ Parameter: parameter } = await ssm(SSMClient).send(new GetParameterCommand({ Name: name, WithDecryption: true })));
  } catch (err) {
    const notFound = err instanceof Error && err.name === 'ParameterNotFound';
    if (!notFound) log('error', 'SSM key read failed', { key_parameter: name, error: err instanceof Error ? err.name : 'unknown' });
    throw new ToolError(notFound ? 'UNAUTHORIZED' : 'INTERNAL_ERROR', notFound ? `SSM parameter "${name}" does not exist.` : `SSM parameter "${name}" could not be read.`, {
      parameter: 'key_parameter',
    });
  }
  if (parameter?.Type !== 'SecureString' || !parameter.Value) {
    throw new ToolError('UNAUTHORIZED', `SSM parameter "${name}" must be a SecureString holding the API key.`, { parameter: 'key_parameter' });
  }
  return parameter.Value;
}

let client: InstanceType<typeof import('@aws-sdk/client-ssm').SSMClient> | undefined;
function ssm(SSMClient: typeof import('@aws-sdk/client-ssm').SSMClient) {
  return (client ??= new SSMClient({}));
}

/** Tests only: forget cached keys and the client. */
export function resetKeyCache(): void {
  cache.clear();
  client = undefined;
}
