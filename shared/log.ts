/** One JSON line per event. Callers pass ids and hashes only: never keys, params or file contents. */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  if (level === 'info' && process.env.LOG_LEVEL !== 'info') return;
  const line = JSON.stringify({ level, message, ...fields, time: new Date().toISOString() });
  if (level === 'error') console.error(line);
  else console.log(line);
}
