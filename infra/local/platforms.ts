import { dbapp } from '../../functions/dbapp';
import type { Platform } from '../../shared/tool';

/** Every implemented platform: the local server serves them all on one port. */
export const platforms: readonly Platform<any>[] = [dbapp];
