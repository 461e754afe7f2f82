import { CONTACTS } from '../../objects/kinds';
import { getObjectTool } from '../../objects/tools';

/** getContact: the get tool shared by the four object types (objects/tools.ts), for contacts. */
export const getContact = getObjectTool(CONTACTS);
