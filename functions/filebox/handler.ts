import { lambdaHandler } from '../../shared/http/lambda';
import { filebox } from './index';

export const handler = lambdaHandler(filebox);
