import { TICKETS } from '../../objects/kinds';
import { searchObjectTool } from '../../objects/tools';

/** searchTickets: the search tool shared by the four object types (objects/tools.ts), for tickets. */
export const searchTickets = searchObjectTool(TICKETS);
