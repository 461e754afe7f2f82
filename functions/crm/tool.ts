import { platformTool } from '../../shared/core/tool';
import type { HubSpotClient } from './client';

/** Every crm tool is defined through this: platform "crm", HubSpot's client in its context. */
export const crmTool = platformTool<HubSpotClient>('crm');
