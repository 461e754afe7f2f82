import { TICKETS } from '../../objects/kinds';
import { getObjectTool } from '../../objects/tools';

/** getTicket: the get tool shared by the four object types (objects/tools.ts), for tickets. */
export const getTicket = getObjectTool(TICKETS);
