import { DEALS } from '../../objects/kinds';
import { getObjectTool } from '../../objects/tools';

/** getDeal: the get tool shared by the four object types (objects/tools.ts), for deals. */
export const getDeal = getObjectTool(DEALS);
