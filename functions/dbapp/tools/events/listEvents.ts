import { dbappEventTools } from '../../events/tools';

export const listEvents = dbappEventTools.listEvents;
