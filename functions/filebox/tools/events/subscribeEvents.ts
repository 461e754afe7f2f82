import { fileboxEventTools } from '../../events/tools';

export const subscribeEvents = fileboxEventTools.subscribeEvents;
