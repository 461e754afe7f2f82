import { fileboxEventTools } from '../../events/tools';

export const deleteSubscription = fileboxEventTools.deleteSubscription;
