import { lambdaHandler } from '../../shared/lambda/handler';
import { collab } from './index';

export const handler = lambdaHandler(collab);
