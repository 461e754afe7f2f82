import { lambdaHandler } from '../../shared/lambda/handler';
import { approvalRoutes } from '../../shared/identity/approval-routes';
import { platforms } from '../platforms';

/**
 * The identity Lambda: admin API, connections, the connect page, the OAuth callback, MCP sign-in
 * and the approval page. It reads every platform's descriptor (auth, toolsets) and serves none of
 * their tools: its bundle leaves their tool modules out (infra/build.ts).
 */
export const handler = lambdaHandler({ name: 'identity', platforms: [], describes: platforms, routes: [approvalRoutes] });
