import type { TapeComment } from '../wire';
import type { UserValue } from '../fields';

/** A record comment as the comment tools return it (docs/vendors/tape.md#record-comments, trimmed). */
export interface RecordComment {
  comment_id: number;
  record_id: number;
  value: string;
  created_on: string;
  created_by: UserValue;
  files: { file_id: number | string; name: string; size: number }[];
}

export function toComment(c: TapeComment): RecordComment {
  return {
    comment_id: c.comment_id,
    record_id: c.ref.id,
    value: c.value,
    created_on: c.created_on,
    created_by: { user_id: c.created_by.user_id, name: c.created_by.name },
    files: (c.files ?? []).map((f) => ({ file_id: f.file_id, name: f.name, size: f.size })),
  };
}
