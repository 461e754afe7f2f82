import { lambdaHandler } from '../../shared/lambda/handler';
import { realty } from './index';

export const handler = lambdaHandler(realty);
