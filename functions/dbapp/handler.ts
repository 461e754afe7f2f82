import { lambdaHandler } from '../../shared/lambda/platform-handler';
import { dbapp } from './index';

export const handler = lambdaHandler(dbapp);
