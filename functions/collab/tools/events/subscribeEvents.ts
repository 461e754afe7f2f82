import { collabEventTools } from '../../events/tools';

export const subscribeEvents = collabEventTools.subscribeEvents;
