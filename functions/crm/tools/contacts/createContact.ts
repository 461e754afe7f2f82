import { CONTACTS } from '../../objects/kinds';
import { createObjectTool } from '../../objects/tools';

/** createContact: the create tool shared by the four object types (objects/tools.ts), for contacts. */
export const createContact = createObjectTool(CONTACTS);
