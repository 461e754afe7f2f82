type Level = 'info' | 'warn' | 'error';

/** A log record: level, message, the fields, the time. Callers pass ids and hashes only: never keys, params or file contents. */
export function logRecord(level: Level, message: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { level, message, ...fields, time: new Date().toISOString() };
}

/** Writes one record as one JSON line: errors to stderr, the rest to stdout (where Lambda's EMF is read). */
export function emit(level: Level, record: Record<string, unknown>): void {
  const line = JSON.stringify(record);
  if (level === 'error') console.error(line);
  else console.log(line);
}

/** Whether info lines are written (LOG_LEVEL=info). */
export const infoLogged = (): boolean => process.env.LOG_LEVEL === 'info';

/** One JSON line per event; info lines only with LOG_LEVEL=info. */
export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (level === 'info' && !infoLogged()) return;
  emit(level, logRecord(level, message, fields));
}
