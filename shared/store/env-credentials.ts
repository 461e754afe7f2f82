/** AWS credentials as the SDK takes them. */
export interface EnvironmentCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * The credentials Lambda gives a function in its environment (its role's key, secret and session
 * token: https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime),
 * or undefined when the environment has none.
 */
export function environmentCredentials(env: NodeJS.ProcessEnv): EnvironmentCredentials | undefined {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

/**
 * What a function's bundle has in place of the SDK's default credential chain
 * (@aws-sdk/credential-provider-node: environment, SSO, INI files, processes, web identity,
 * container and instance metadata — most of it never used in Lambda): the environment only. Same
 * shape as the chain's `defaultProvider`, which the client calls only when it was given no
 * credentials (infra/build.ts puts this module in its place).
 */
export const defaultProvider = () => async (): Promise<EnvironmentCredentials> => {
  const found = environmentCredentials(process.env);
  if (!found) throw new Error('No AWS credentials: the function reads them from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), which Lambda sets from its role.');
  return found;
};
