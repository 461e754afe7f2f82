/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the local
 * server's combined endpoint: `npx tsx test/mcp/conformance.ts [scenario …]`.
 *
 * Two facts shape it: the suite needs Node ≥ 22 (fs.globSync), so it runs under the `node@22`
 * npm package through npx while this script stays on Node 20; and its client sends no
 * Authorization header, so a small proxy in front of the server adds the sandbox key. The proxy
 * is transparent to Host and Origin: its own host and origin become the server's, anything
 * else passes unchanged, so the server's DNS-rebinding protection is what the suite tests.
 * Prints one line per scenario and exits 1 if one fails.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { startLocal } from '../../infra/local/server';

/** The scenarios that apply to a tools-only server (the others need prompts, resources, sampling… or the suite's own test tools). */
export const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];
const SUITE = ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/conformance@0.1.16', '-c'];

async function main(): Promise<void> {
  const scenarios = process.argv.slice(2).length ? process.argv.slice(2) : APPLICABLE;
  const local = await startLocal({ PORT: '0' });
  const target = new URL(local.base);
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const own = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const ownAlt = `localhost:${(proxy.address() as AddressInfo).port}`;
    const headers = { ...req.headers, authorization: `Bearer ${local.key}` };
    if (req.headers.host === own || req.headers.host === ownAlt) headers.host = target.host;
    if (req.headers.origin === `http://${own}` || req.headers.origin === `http://${ownAlt}`) headers.origin = target.origin;
    const upstream = request({ host: target.hostname, port: Number(target.port), path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(proxy.address() as AddressInfo).port}/v1/mcp`;
  let failed = 0;
  for (const scenario of scenarios) {
    const code = await new Promise<number>((resolve) => {
      const child = spawn('npx', [...SUITE, `conformance server --url ${url} --scenario ${scenario}`], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (c) => {
        if (c !== 0 || process.env.VERBOSE) console.log(out.replace(/^npm warn.*\n/gm, ''));
        resolve(c ?? 1);
      });
    });
    console.log(`${code === 0 ? 'PASS' : 'FAIL'} ${scenario}`);
    if (code !== 0) failed += 1;
  }
  proxy.close();
  local.server.close();
  process.exit(failed ? 1 : 0);
}

await main();
