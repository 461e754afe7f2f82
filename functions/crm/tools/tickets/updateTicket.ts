import { TICKETS } from '../../objects/kinds';
import { updateObjectTool } from '../../objects/tools';

/** updateTicket: the update tool shared by the four object types (objects/tools.ts), for tickets. */
export const updateTicket = updateObjectTool(TICKETS);
