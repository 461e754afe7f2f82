import { dbappEventTools } from '../../events/tools';

export const listSubscriptions = dbappEventTools.listSubscriptions;
