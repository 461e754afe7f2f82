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
  });
  // Steps of every request that a store request does not need: the User-Agent header, the SDK's
  // logging (to no logger) and the trace header of Lambda's recursion detection (which does not
  // apply to DynamoDB calls and looks up the invocation's trace store on each request).
  for (const step of UNUSED_STEPS) client.middlewareStack.remove(step);
  return new DynamoStore(client, config.table);
}
