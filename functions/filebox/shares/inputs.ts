import * as z from 'zod';

export const recipientsInput = (what: string) => z.array(z.email({ message: 'an email address such as ana@example.com' })).max(50).describe(what);
// min(-1) puts the floor in the JSON schema; the refine takes out 0, the one integer between.
export const maxDownloadsInput = z
  .number()
  .int({ message: '-1 (unlimited) or a whole number of 1 or more' })
  .min(-1, { message: '-1 (unlimited) or a whole number of 1 or more' })
  .refine((n) => n !== 0, { message: '-1 (unlimited) or a whole number of 1 or more; 0 would allow no download' })
  .describe('Downloads allowed per recipient link: -1 for unlimited, or 1 and more (0 is refused).');
