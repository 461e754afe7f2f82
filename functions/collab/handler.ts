import { lambdaHandler } from '../../shared/http/lambda';
import { collab } from './index';

export const handler = lambdaHandler(collab);
