import { platformTool } from '../../shared/core/tool';
import type { TapeClient } from './client';

/** Every dbapp tool is defined through this: platform "dbapp", Tape's client in its context. */
export const dbappTool = platformTool<TapeClient>('dbapp');
