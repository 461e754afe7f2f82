import { platformTool } from '../../shared/core/tool';
import type { PodioClient } from './client';

/** Every collab tool is defined through this: platform "collab", Podio's client in its context. */
export const collabTool = platformTool<PodioClient>('collab');
