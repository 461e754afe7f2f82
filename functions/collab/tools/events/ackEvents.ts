import { collabEventTools } from '../../events/tools';

export const ackEvents = collabEventTools.ackEvents;
