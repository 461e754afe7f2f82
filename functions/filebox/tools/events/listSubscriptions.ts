import { fileboxEventTools } from '../../events/tools';

export const listSubscriptions = fileboxEventTools.listSubscriptions;
