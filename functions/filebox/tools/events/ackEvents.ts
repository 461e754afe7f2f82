import { fileboxEventTools } from '../../events/tools';

export const ackEvents = fileboxEventTools.ackEvents;
