import { DEALS } from '../../objects/kinds';
import { createObjectTool } from '../../objects/tools';

/** createDeal: the create tool shared by the four object types (objects/tools.ts), for deals. */
export const createDeal = createObjectTool(DEALS);
