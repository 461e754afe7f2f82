import { eventTools } from '../../../shared/events/tools';
import { tapeEvents } from './adapter';

/** The six event tools of dbapp (shared/events/tools.ts) over its adapter. */
export const dbappEventTools = eventTools(tapeEvents);
