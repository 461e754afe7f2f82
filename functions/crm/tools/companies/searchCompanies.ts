import { COMPANIES } from '../../objects/kinds';
import { searchObjectTool } from '../../objects/tools';

/** searchCompanies: the search tool shared by the four object types (objects/tools.ts), for companies. */
export const searchCompanies = searchObjectTool(COMPANIES);
