import * as z from 'zod';
import { isUserId } from '../params';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A member: a user id (GUID) or an email address. */
export const memberInput = z
  .string()
  .trim()
  .refine((v) => isUserId(v) || EMAIL.test(v), { message: 'a user id (GUID) or an email address' })
  .describe('A user id (GUID, from listUsers) or an email address.');

export const memberRef = (m: string): { Id: string } | { Email: string } => (isUserId(m) ? { Id: m } : { Email: m });
