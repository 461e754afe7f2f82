import { fileboxEventTools } from '../../events/tools';

export const listEvents = fileboxEventTools.listEvents;
