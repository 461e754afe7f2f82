import { lambdaHandler } from '../../shared/lambda/handler';
import { platforms } from '../platforms';

/**
 * The combined MCP endpoint /v1/mcp (and /v1/openapi.json of every platform): one Lambda with every
 * platform, since one endpoint lists and calls the tools of all of them. Each platform's own
 * endpoint stays on its own, smaller function. The identity routes (sign-in, approvals) are the
 * identity function's.
 */
export const handler = lambdaHandler({ name: 'mcp', platforms });
