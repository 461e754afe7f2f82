import { eventTools } from '../../../shared/events/tools';
import { shareFileEvents } from './adapter';

/** The six event tools of filebox (shared/events/tools.ts) over its adapter. */
export const fileboxEventTools = eventTools(shareFileEvents);
