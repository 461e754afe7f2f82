import { collabEventTools } from '../../events/tools';

export const listEvents = collabEventTools.listEvents;
