import { lambdaHandler } from '../../shared/lambda/platform-handler';
import { filebox } from './index';

export const handler = lambdaHandler(filebox);
