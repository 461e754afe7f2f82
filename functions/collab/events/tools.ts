import { eventTools } from '../../../shared/events/tools';
import { podioEvents } from './adapter';

/** The six event tools of collab (shared/events/tools.ts) over its adapter. */
export const collabEventTools = eventTools(podioEvents);
