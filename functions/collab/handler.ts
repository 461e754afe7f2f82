import { lambdaHandler } from '../../shared/lambda/platform-handler';
import { collab } from './index';

export const handler = lambdaHandler(collab);
