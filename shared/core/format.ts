/** Formatting of field values every platform's table shares (HTML to plain text, short dates). */

/** Plain text of HTML field values (rich text fields, calculations). */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "2025-03-01 00:00:00" → "2025-03-01"; "2025-03-01 14:30:00" → "2025-03-01 14:30". */
export function shortDate(s: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/.exec(s);
  if (!m) return s;
  if (m[2] === '00:00' && (m[3] ?? ':00') === ':00') return m[1]!;
  return m[3] && m[3] !== ':00' ? `${m[1]} ${m[2]}${m[3]}` : `${m[1]} ${m[2]}`;
}
