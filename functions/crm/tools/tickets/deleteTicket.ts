import { TICKETS } from '../../objects/kinds';
import { deleteObjectTool } from '../../objects/tools';

/** deleteTicket: the delete tool shared by the four object types (objects/tools.ts), for tickets. */
export const deleteTicket = deleteObjectTool(TICKETS);
