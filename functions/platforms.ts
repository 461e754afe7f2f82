import type { Platform } from '../shared/core/tool';
import { collab } from './collab/index';
import { crm } from './crm/index';
import { dbapp } from './dbapp/index';
import { filebox } from './filebox/index';
import { realty } from './realty/index';

/**
 * Every platform of the service, in catalog order: the combined MCP function serves them all
 * (functions/mcp/handler.ts), the identity function connects and signs in to them
 * (functions/identity/handler.ts), the local server runs each beside its twin
 * (infra/local/platforms.ts) and the build finds the combined function's platforms here
 * (infra/build.ts). Adding a platform is its folder and one line here (README "Adding a platform").
 */
export const platforms: readonly Platform<any>[] = [dbapp, collab, filebox, crm, realty];
