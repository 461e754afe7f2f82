import { COMPANIES } from '../../objects/kinds';
import { updateObjectTool } from '../../objects/tools';

/** updateCompany: the update tool shared by the four object types (objects/tools.ts), for companies. */
export const updateCompany = updateObjectTool(COMPANIES);
