import { DEALS } from '../../objects/kinds';
import { deleteObjectTool } from '../../objects/tools';

/** deleteDeal: the delete tool shared by the four object types (objects/tools.ts), for deals. */
export const deleteDeal = deleteObjectTool(DEALS);
