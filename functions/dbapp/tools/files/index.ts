import { uploadFiles } from './uploadFiles';

export const fileTools = [uploadFiles];
