import { COMPANIES } from '../../objects/kinds';
import { createObjectTool } from '../../objects/tools';

/** createCompany: the create tool shared by the four object types (objects/tools.ts), for companies. */
export const createCompany = createObjectTool(COMPANIES);
