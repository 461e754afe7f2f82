import { identityHandler } from '../../shared/lambda/app-handler';
import { platforms } from '../platforms';

/**
 * The identity Lambda: admin API, connections, the connect page, the OAuth callback and MCP
 * sign-in. It reads every platform's descriptor (auth, toolsets) and serves none of their tools:
 * its bundle leaves their tool modules out (infra/build.ts).
 */
export const handler = identityHandler(platforms);
