import { invalidParameter, ToolError } from '../../../shared/core/errors';

/**
 * Podio refuses to attach a file that is already attached (docs/spec.md#collab-file, #errors): 400
 * `file.already_attached`. The caller learns what to do instead: copy it first.
 */
export function explainAttachError(err: unknown, fileId: number, parameter: string): unknown {
  if (err instanceof ToolError && err.details.upstream_code === 'file.already_attached') {
    return alreadyAttached(fileId, parameter);
  }
  return err;
}

/** INVALID_PARAMETER for a file attached elsewhere: a file lives on one object only; copyFile makes an unattached copy. */
export function alreadyAttached(fileId: number, parameter: string, where?: string): ToolError {
  return invalidParameter(
    parameter,
    'an unattached file id',
    `File #${fileId} is already attached${where ? ` ${where}` : ' to another object'} (Podio: file.already_attached); a file can be attached to one object only. ` +
      `Call copyFile with file_id ${fileId} to get an unattached copy and attach the copy instead.`,
    { upstream_code: 'file.already_attached', file_id: fileId },
  );
}
