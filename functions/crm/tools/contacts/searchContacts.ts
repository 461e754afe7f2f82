import { CONTACTS } from '../../objects/kinds';
import { searchObjectTool } from '../../objects/tools';

/** searchContacts: the search tool shared by the four object types (objects/tools.ts), for contacts. */
export const searchContacts = searchObjectTool(CONTACTS);
