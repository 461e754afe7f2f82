import { COMPANIES } from '../../objects/kinds';
import { deleteObjectTool } from '../../objects/tools';

/** deleteCompany: the delete tool shared by the four object types (objects/tools.ts), for companies. */
export const deleteCompany = deleteObjectTool(COMPANIES);
