import { lambdaHandler } from '../../shared/lambda/handler';
import { dbapp } from './index';

export const handler = lambdaHandler(dbapp);
