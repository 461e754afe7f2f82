import * as z from 'zod';
import { id } from '../../../shared/core/params';

/** Input fragments the sharing tools share (docs/spec.md#collab-grant). */

export const accessLevelInput = z.enum(['view', 'edit']).describe('"view" (read and comment) or "edit" (also change the item and add files).');

/** One user per call (deleteShare, updateShare): the description, quoted in the error a list gets, says so. */
export const shareUserIdInput = id(
  'The user_id of the person holding the grant (getItemShares lists them; an invited email has a user_id there too). One user per call.',
);
