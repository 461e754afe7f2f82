import { lambdaHandler } from '../../shared/lambda/handler';
import { filebox } from './index';

export const handler = lambdaHandler(filebox);
