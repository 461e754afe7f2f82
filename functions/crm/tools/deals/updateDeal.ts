import { DEALS } from '../../objects/kinds';
import { updateObjectTool } from '../../objects/tools';

/** updateDeal: the update tool shared by the four object types (objects/tools.ts), for deals. */
export const updateDeal = updateObjectTool(DEALS);
