import { CONTACTS } from '../../objects/kinds';
import { deleteObjectTool } from '../../objects/tools';

/** deleteContact: the delete tool shared by the four object types (objects/tools.ts), for contacts. */
export const deleteContact = deleteObjectTool(CONTACTS);
