import { CONTACTS } from '../../objects/kinds';
import { updateObjectTool } from '../../objects/tools';

/** updateContact: the update tool shared by the four object types (objects/tools.ts), for contacts. */
export const updateContact = updateObjectTool(CONTACTS);
