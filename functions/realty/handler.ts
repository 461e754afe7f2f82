import { lambdaHandler } from '../../shared/http/lambda';
import { realty } from './index';

export const handler = lambdaHandler(realty);
