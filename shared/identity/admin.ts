import { createHash, timingSafeEqual } from 'node:crypto';
import { readSecureKey } from '../aws/ssm';
import type { Identity } from './identity';

const sha = (s: string) => createHash('sha256').update(s).digest();

/** The admin credential: ADMIN_TOKEN, or the SSM SecureString named by ADMIN_TOKEN_PARAMETER; undefined when there is none. */
export async function adminCredential(id: Identity): Promise<string | undefined> {
  return id.config.adminToken ?? (id.config.adminTokenParameter ? await readSecureKey(id.config.adminTokenParameter) : undefined);
}

/** Whether `presented` is the admin credential (compared in constant time, as hashes). */
export const isAdminCredential = (presented: string, expected: string) => timingSafeEqual(sha(presented), sha(expected));
