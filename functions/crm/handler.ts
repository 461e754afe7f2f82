import { lambdaHandler } from '../../shared/http/lambda';
import { crm } from './index';

export const handler = lambdaHandler(crm);
