import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackServer } from '../helpers/loopback';
import { hasOpenssl, selfSignedServer, type TlsServer } from '../helpers/tls';
import { ToolError } from '../../shared/core/errors';
import { blockedAddress, type Resolver } from '../../shared/vendor/address-rules';
import { fetchUrl, type FetchUrlOptions } from '../../shared/vendor/fetch-url';
import { fileNameFrom } from '../../shared/core/file-name';

/** A resolver that answers from a table and counts its calls; unknown hosts fail as DNS does. */
function resolver(table: Record<string, string | string[]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [found].flat().map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

async function refusal(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  const e = err as ToolError;
  expect(e.code).toBe('INVALID_PARAMETER');
  return e;
}

const P = 'fields.attachments.0';

/** Waiting for the client to drop the never-ending /slow answer. */
const slowClosed: (() => void)[] = [];

// A plain http server on 127.0.0.1: reachable only because tests list 127.0.0.1 in allowHttpHosts.

const base = loopbackServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  switch (url.pathname) {
    case '/hello.txt':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello world');
      return;
    case '/named':
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="Q3 report.pdf"' }).end('%PDF-1.4');
      return;
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    case '/hop': {
      const n = Number(url.searchParams.get('n'));
      if (n === 0) res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
      else res.writeHead(301, { location: `/hop?n=${n - 1}` }).end();
      return;
    }
    case '/declared-big':
      res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
      return;
    case '/streamed-big': {
      // No Content-Length: the cap must stop the reading itself.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const tick = () => {
        if (res.destroyed || sent >= 50) return res.end();
        sent++;
        res.write(Buffer.alloc(1000), () => setImmediate(tick));
      };
      tick();
      return;
    }
    case '/slow':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start…');
      res.on('close', () => slowClosed.splice(0).forEach((f) => f()));
      return; // never ends
    case '/missing':
      res.writeHead(404).end('not here');
      return;
    default:
      res.writeHead(500).end();
  }
});


const local: Pick<FetchUrlOptions, 'parameter' | 'allowHttpHosts'> = { parameter: P, allowHttpHosts: ['127.0.0.1'] };

describe('blockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private address (10.0.0.0/8)'],
    ['172.16.0.1', 'private address (172.16.0.0/12)'],
    ['172.31.255.255', 'private address (172.16.0.0/12)'],
    ['192.168.1.1', 'private address (192.168.0.0/16)'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 form of 127.0.0.1, a loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped IPv6 form of 127.0.0.1'],
    ['::ffff:10.0.0.1', 'IPv4-mapped IPv6 form of 10.0.0.1, a private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:192.168.0.1', 'private'],
    ['64:ff9b::a00:1', 'NAT64 IPv6 form of 10.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 IPv6 form of 169.254.169.254'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['2001:db8::1', 'documentation'],
    ['not-an-ip', 'not an IP address'],
  ])('refuses %s (%s)', (address, why) => {
    expect(blockedAddress(address)).toContain(why);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '100.63.255.255', '169.255.0.1', '11.0.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'lets the public address %s through',
    (address) => {
      expect(blockedAddress(address)).toBeUndefined();
    },
  );
});

describe('fetchUrl refusals before any connection', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.20.1.1',
    '192.168.178.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.251',
    '::1',
    'fd12:3456::1',
    'fe80::abcd',
    '::ffff:169.254.169.254',
  ])('refuses a host resolving to %s, naming the parameter and the rule', async (address) => {
    const { resolve } = resolver({ 'files.example.com': address });
    const e = await refusal(fetchUrl('https://files.example.com/report.pdf', { parameter: P, resolve }));
    expect(e.details).toMatchObject({ parameter: P, reason: 'address', address });
    expect(e.message).toContain(`Parameter "${P}"`);
    expect(e.message).toContain(`resolves to ${address}, ${blockedAddress(address)}`);
  });

  it('checks every resolved address, not only the first', async () => {
    const { resolve } = resolver({ 'cdn.example.com': ['93.184.215.14', '10.0.0.1'] });
    const e = await refusal(fetchUrl('https://cdn.example.com/a.png', { parameter: P, resolve }));
    expect(e.details).toMatchObject({ reason: 'address', address: '10.0.0.1' });
  });

  it.each([
    ['https://127.0.0.1/x', 'loopback'],
    ['https://[::1]/x', 'loopback'],
    ['https://[::ffff:7f00:1]/x', 'IPv4-mapped'],
    ['https://2130706433/x', 'loopback'], // decimal form of 127.0.0.1
    ['https://0x7f.1/x', 'loopback'],
    ['https://169.254.169.254/latest/meta-data/', 'metadata'],
  ])('refuses the IP literal of %s without asking DNS', async (url, why) => {
    const { resolve, calls } = resolver({});
    const e = await refusal(fetchUrl(url, { parameter: P, resolve }));
    expect(e.details.reason).toBe('address');
    expect(e.message).toContain(why);
    expect(calls).toEqual([]);
  });

  it.each([
    ['http://example.com/a.pdf', 'scheme', 'only https'],
    ['ftp://example.com/a.pdf', 'scheme', 'only https'],
    ['file:///etc/passwd', 'scheme', 'only https'],
    ['not a url', 'invalid_url', 'not a valid URL'],
    ['https://user:secret@example.com/a.pdf', 'credentials', 'password'],
  ])('refuses %s (%s)', async (url, reason, text) => {
    const { resolve, calls } = resolver({});
    const e = await refusal(fetchUrl(url, { parameter: P, resolve }));
    expect(e.details).toMatchObject({ parameter: P, reason });
    expect(e.message).toContain(text);
    expect(calls).toEqual([]);
  });

  it('answers a host DNS does not know with reason dns', async () => {
    const e = await refusal(fetchUrl('https://nowhere.invalid/x', { parameter: P, resolve: resolver({}).resolve }));
    expect(e.details.reason).toBe('dns');
    expect(e.message).toContain('ENOTFOUND');
  });

  it('lifts the http and address rules only for exactly the listed hosts', async () => {
    // localhost is not 127.0.0.1: http refused, and https to a loopback address refused.
    const http1 = await refusal(fetchUrl(`${base().replace('127.0.0.1', 'localhost')}/hello.txt`, local));
    expect(http1.details.reason).toBe('scheme');
    const { resolve } = resolver({ localhost: '127.0.0.1' });
    const https1 = await refusal(fetchUrl('https://localhost/hello.txt', { ...local, resolve }));
    expect(https1.details.reason).toBe('address');
  });
});

describe('fetchUrl downloads', () => {
  it('downloads from an allowed http host and reports type and name from the URL path', async () => {
    const r = await fetchUrl(`${base()}/hello.txt`, local);
    expect(r.bytes.toString()).toBe('hello world');
    expect(r.contentType).toBe('text/plain');
    expect(r.fileName).toBe('hello.txt');
    expect(r.url).toBe(`${base()}/hello.txt`);
  });

  it('takes the file name from Content-Disposition', async () => {
    const r = await fetchUrl(`${base()}/named`, local);
    expect(r).toMatchObject({ fileName: 'Q3 report.pdf', contentType: 'application/pdf' });
    expect(r.bytes.toString()).toBe('%PDF-1.4');
  });

  it('follows redirects (relative ones too) up to 5 hops, and refuses a sixth', async () => {
    const r = await fetchUrl(`${base()}/hop?n=5`, local);
    expect(r.bytes.toString()).toBe('arrived');
    expect(r.url).toBe(`${base()}/hop?n=0`);
    const e = await refusal(fetchUrl(`${base()}/hop?n=6`, local));
    expect(e.details.reason).toBe('redirects');
    expect(e.message).toContain('more than 5');
  });

  it('re-checks every redirect hop: a redirect to a private address is refused', async () => {
    const { resolve, calls } = resolver({ 'intranet.example.com': '10.0.0.7' });
    const to = encodeURIComponent('https://intranet.example.com/secret');
    const e = await refusal(fetchUrl(`${base()}/redirect?to=${to}`, { ...local, resolve }));
    expect(e.details).toMatchObject({ parameter: P, reason: 'address', address: '10.0.0.7' });
    expect(e.message).toContain('redirected to "https://intranet.example.com/secret"');
    expect(calls).toEqual(['intranet.example.com']);

    const meta = await refusal(fetchUrl(`${base()}/redirect?to=${encodeURIComponent('https://169.254.169.254/latest/meta-data/')}`, local));
    expect(meta.message).toContain('metadata');
    const plain = await refusal(fetchUrl(`${base()}/redirect?to=${encodeURIComponent('http://example.com/x')}`, local));
    expect(plain.details.reason).toBe('scheme');
    expect(plain.message).toContain('redirects to "http://example.com/x", which uses http');
  });

  it('refuses a body over the size cap, declared or streamed', async () => {
    const declared = await refusal(fetchUrl(`${base()}/declared-big`, { ...local, maxBytes: 4000 }));
    expect(declared.details).toMatchObject({ reason: 'too_large', max_bytes: 4000 });
    const streamed = await refusal(fetchUrl(`${base()}/streamed-big`, { ...local, maxBytes: 10_000 }));
    expect(streamed.details.reason).toBe('too_large');
    // Under the cap the same body arrives whole.
    expect((await fetchUrl(`${base()}/streamed-big`, { ...local, maxBytes: 60_000 })).bytes.length).toBe(50_000);
  });

  it('caps several downloads together with a shared budget', async () => {
    const budget = { remaining: 7000, limit: 7000 };
    await fetchUrl(`${base()}/declared-big`, { ...local, budget });
    expect(budget.remaining).toBe(2000);
    const e = await refusal(fetchUrl(`${base()}/declared-big`, { ...local, budget }));
    expect(e.details).toMatchObject({ reason: 'too_large', max_total_bytes: 7000 });
  });

  it('gives up after the time cap and drops the connection', async () => {
    // /slow never ends its body: only the cap can end the download, and the server sees the connection go.
    const dropped = new Promise<void>((r) => slowClosed.push(r));
    const e = await refusal(fetchUrl(`${base()}/slow`, { ...local, timeoutMs: 300 }));
    expect(e.details).toMatchObject({ reason: 'timeout', timeout_ms: 300 });
    await dropped;
  });

  it('refuses a non-2xx answer', async () => {
    const e = await refusal(fetchUrl(`${base()}/missing`, local));
    expect(e.details).toMatchObject({ reason: 'http_status', http_status: 404 });
  });
});

describe('fileNameFrom', () => {
  const u = new URL('https://cdn.example.com/files/2024/Annual%20Report.pdf?sig=abc');
  it.each([
    ['attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'],
    ["attachment; filename=\"fallback.txt\"; filename*=UTF-8''na%C3%AFve%20file.txt", 'naïve file.txt'],
    ['inline; filename=plain.csv', 'plain.csv'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', 'Annual Report.pdf'],
    [undefined, 'Annual Report.pdf'],
  ])('%s → %s', (disposition, name) => {
    expect(fileNameFrom(disposition, u)).toBe(name);
  });
  it('falls back to "download" with the extension of the content type', () => {
    expect(fileNameFrom(undefined, new URL('https://example.com/'), 'image/png')).toBe('download.png');
  });
});

// https with the vetted address: a TLS server on 127.0.0.1 with a certificate for files.example.com,
// made at test time with openssl. The resolver's answer is the only way to reach it: Node's own DNS
// would not find files.example.com → 127.0.0.1.
describe.skipIf(!hasOpenssl())('fetchUrl over https to the vetted address', () => {
  let cert = '';
  let port = 0;
  const seen: { host?: string; servername?: string | false | null }[] = [];
  let tls: TlsServer;

  beforeAll(async () => {
    tls = await selfSignedServer('DNS:files.example.com', (req, res) => {
      seen.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername });
      res.writeHead(200, { 'content-type': 'image/png', 'content-disposition': 'inline; filename="logo.png"' }).end('PNGDATA');
    });
    cert = tls.cert;
    port = tls.port;
  });
  afterAll(() => tls.close());

  it('connects to the resolved address once, keeping SNI, Host and the certificate check on the hostname', async () => {
    const { resolve, calls } = resolver({ 'files.example.com': '127.0.0.1' });
    // Listing the host lifts the address rule (127.0.0.1 is loopback) for this host only.
    const r = await fetchUrl(`https://files.example.com:${port}/logo`, { parameter: P, resolve, ca: cert, allowHttpHosts: ['files.example.com'] });
    expect(r).toMatchObject({ contentType: 'image/png', fileName: 'logo.png' });
    expect(r.bytes.toString()).toBe('PNGDATA');
    expect(calls).toEqual(['files.example.com']);
    expect(seen.at(-1)).toEqual({ host: `files.example.com:${port}`, servername: 'files.example.com' });
  });

  it('verifies the certificate: untrusted or issued for another name is refused', async () => {
    const { resolve } = resolver({ 'files.example.com': '127.0.0.1', 'other.example.com': '127.0.0.1' });
    const allow = ['files.example.com', 'other.example.com'];
    const untrusted = await refusal(fetchUrl(`https://files.example.com:${port}/logo`, { parameter: P, resolve, allowHttpHosts: allow }));
    expect(untrusted.details.reason).toBe('network');
    const wrongName = await refusal(fetchUrl(`https://other.example.com:${port}/logo`, { parameter: P, resolve, ca: cert, allowHttpHosts: allow }));
    expect(wrongName.details.reason).toBe('network');
    expect(wrongName.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('refuses the same host when it is not listed, before connecting', async () => {
    const before = seen.length;
    const { resolve } = resolver({ 'files.example.com': '127.0.0.1' });
    const e = await refusal(fetchUrl(`https://files.example.com:${port}/logo`, { parameter: P, resolve, ca: cert }));
    expect(e.details.reason).toBe('address');
    expect(seen.length).toBe(before);
  });
});

