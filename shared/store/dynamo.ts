import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoStore } from './dynamodb';
import { environmentCredentials } from './env-credentials';

const UNUSED_STEPS = ['getUserAgentMiddleware', 'loggerMiddleware', 'recursionDetectionMiddleware'];

/**
 * The DynamoDB store with the client a function needs: DynamoDBClient and, through DynamoStore,
 * only the commands the store sends (each command is its own module of the SDK, so a bundle takes
 * no other). Credentials come from the environment when it holds them, as Lambda's does (the
 * role's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN); otherwise (a developer's
 * machine) the SDK's default chain finds them. The function's bundle builds this module apart, with
 * the default chain left out (infra/build.ts; README "Performance").
 */
export function createDynamoStore(config: { table: string; endpoint?: string; region?: string }, env: NodeJS.ProcessEnv = process.env): DynamoStore {
  const credentials = environmentCredentials(env);
  const client = new DynamoDBClient({
    ...(config.region ? { region: config.region } : {}),
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    // The store never changes the middleware stack after this function, so each command's stack
    // is resolved once instead of on every request (the SDK's option for this).
    cacheMiddleware: true,
  });
  // Steps of every request that a store request does not need: the User-Agent header, the SDK's
  // logging (to no logger) and the trace header of Lambda's recursion detection (which does not
  // apply to DynamoDB calls and looks up the invocation's trace store on each request).
  for (const step of UNUSED_STEPS) client.middlewareStack.remove(step);
  memoizeSigner(client);
  return new DynamoStore(client, config.table);
}

/**
 * The SDK builds a new SigV4 signer for every request (a copy of the whole client config, and the
 * signing key derived again, four HMACs); one per auth scheme serves them all. The signer asks the
 * client's credential provider on every signature, so credentials that expire are still refreshed.
 */
function memoizeSigner(client: DynamoDBClient): void {
  const make = client.config.signer;
  const made = new Map<string, ReturnType<typeof make>>();
  client.config.signer = (authScheme) => {
    const key = `${authScheme?.name}|${authScheme?.signingName}|${authScheme?.signingRegion}`;
    let signer = made.get(key);
    if (!signer) {
      signer = make(authScheme);
      // A failed build (a region not resolved yet) is not kept: the next request tries again.
      signer.catch(() => made.delete(key));
      made.set(key, signer);
    }
    return signer;
  };
}
