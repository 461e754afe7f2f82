import { fileboxEventTools } from '../../events/tools';

export const getSubscription = fileboxEventTools.getSubscription;
