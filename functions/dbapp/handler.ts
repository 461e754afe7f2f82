import { lambdaHandler } from '../../shared/http/lambda';
import { dbapp } from './index';

export const handler = lambdaHandler(dbapp);
