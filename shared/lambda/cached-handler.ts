import type { Handler } from 'aws-lambda';
import { loadBundle } from './bundle-loader';

/**
 * handler.js of a CommonJS function as built (infra/build.ts): the function's `handler`, from its
 * bundle beside this file loaded through the bundle's code cache (bundle-loader.ts).
 */
export const handler = loadBundle(__dirname).handler as Handler;
