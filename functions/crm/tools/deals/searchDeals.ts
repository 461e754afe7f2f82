import { DEALS } from '../../objects/kinds';
import { searchObjectTool } from '../../objects/tools';

/** searchDeals: the search tool shared by the four object types (objects/tools.ts), for deals. */
export const searchDeals = searchObjectTool(DEALS);
