import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether openssl is on PATH (the self-signed certificate is made with it at test time). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TlsServer {
  port: number;
  /** The certificate (PEM), to trust as the CA of the connection. */
  cert: string;
  close(): Promise<void>;
}

/**
 * An https server on 127.0.0.1 with a one-day self-signed certificate for `san` (e.g.
 * `IP:127.0.0.1` or `DNS:files.example.com`), for tests of the SSRF-guarded https fetch.
 */
export async function selfSignedServer(san: string, handler: RequestListener): Promise<TlsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'tls-'));
  const cn = san.replace(/^(IP|DNS):/, '');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', `/CN=${cn}`, '-addext', `subjectAltName=${san}`],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    cert,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
