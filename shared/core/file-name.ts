const EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf',
  'application/json': '.json',
  'application/zip': '.zip',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
};

function cleanName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  const base = name.split(/[/\\]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return base === '' || base === '.' || base === '..' ? undefined : base;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The file name a download should carry: Content-Disposition (filename* first), else the URL path. */
export function fileNameFrom(disposition: string | undefined, url: URL, contentType = 'application/octet-stream'): string {
  let name: string | undefined;
  if (disposition) {
    const star = /filename\*\s*=\s*([^';]*)'[^']*'([^;]+)/i.exec(disposition);
    if (star) name = cleanName(decode(star[2]!.trim().replace(/^"|"$/g, '')));
    if (!name) {
      const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
      if (plain) name = cleanName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]);
    }
  }
  if (!name) {
    const segment = url.pathname.split('/').filter(Boolean).pop();
    if (segment) name = cleanName(decode(segment) ?? segment);
  }
  return name ?? `download${EXTENSIONS[contentType] ?? ''}`;
}
