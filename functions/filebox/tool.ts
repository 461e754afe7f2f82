import { platformTool } from '../../shared/core/tool';
import type { ShareFileClient } from './client';

/** Every filebox tool is defined through this: platform "filebox", ShareFile's client in its context. */
export const fileboxTool = platformTool<ShareFileClient>('filebox');
