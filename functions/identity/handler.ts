import { lambdaHandler } from '../../shared/lambda/handler';
import { IDENTITY_MOUNTS } from '../../shared/http/app';
import { approvalRoutes } from '../../shared/identity/approval-routes';
import { platforms } from '../platforms';

/**
 * The identity Lambda: admin API, connections, the connect page, the OAuth callback, MCP sign-in,
 * the operator console and the approval page — the only function that mounts them (API Gateway
 * sends their paths here alone, serverless.yml). It reads every platform's descriptor (auth,
 * toolsets) and serves none of their tools: its bundle leaves their tool modules out (infra/build.ts).
 */
export const handler = lambdaHandler({ name: 'identity', platforms: [], describes: platforms, routes: [...IDENTITY_MOUNTS, approvalRoutes] });
