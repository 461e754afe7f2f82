import { lambdaHandler } from '../../shared/lambda/platform-handler';
import { realty } from './index';

export const handler = lambdaHandler(realty);
