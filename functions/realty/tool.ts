import { platformTool } from '../../shared/core/tool';
import type { BatchDataClient } from './client';

/** Every realty tool is defined through this: platform "realty", BatchData's client in its context. */
export const realtyTool = platformTool<BatchDataClient>('realty');
