import { dbappEventTools } from '../../events/tools';

export const subscribeEvents = dbappEventTools.subscribeEvents;
