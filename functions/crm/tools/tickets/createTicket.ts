import { TICKETS } from '../../objects/kinds';
import { createObjectTool } from '../../objects/tools';

/** createTicket: the create tool shared by the four object types (objects/tools.ts), for tickets. */
export const createTicket = createObjectTool(TICKETS);
