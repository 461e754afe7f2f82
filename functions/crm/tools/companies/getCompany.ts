import { COMPANIES } from '../../objects/kinds';
import { getObjectTool } from '../../objects/tools';

/** getCompany: the get tool shared by the four object types (objects/tools.ts), for companies. */
export const getCompany = getObjectTool(COMPANIES);
