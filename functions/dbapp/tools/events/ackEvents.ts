import { dbappEventTools } from '../../events/tools';

export const ackEvents = dbappEventTools.ackEvents;
