import { lambdaHandler } from '../../shared/lambda/handler';
import { crm } from './index';

export const handler = lambdaHandler(crm);
