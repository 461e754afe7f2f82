import { lambdaHandler } from '../../shared/lambda/platform-handler';
import { crm } from './index';

export const handler = lambdaHandler(crm);
