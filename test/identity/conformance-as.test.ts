import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { Browser, localServer } from './helpers';

/**
 * The official MCP conformance suite's authorization server scenarios
 * (@modelcontextprotocol/conformance, `conformance authorization --file <settings>` as a deployer
 * runs it) against the built-in authorization server of the local app. The suite plays the
 * client: it reads the metadata, prints the authorization URL and waits for the code on its own
 * loopback callback; the test is the user — it opens that URL in a headless browser, signs in
 * with a service key and allows. docs/identity.md lists each scenario and its result.
 */
const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

/** Every scenario of the suite's `authorization` command: all apply to the built-in server. */
const SCENARIOS = ['authorization-server-metadata-endpoint', 'authorization-code-grant'];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/** A loopback port no one listens on now: the suite's callback server takes it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('conformance authorization: the built-in authorization server', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let out: string;
  let exitCode: number | null;
  let signedIn: URL;
  let cli: ChildProcess | undefined;
  const results = new Map<string, Check[]>();

  beforeAll(async () => {
    s = await localServer();
    const key = (await s.createKey('tenant-c', { platforms: ['dbapp'] })).key;
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
    await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
    const port = await freePort();
    // The suite's client is a native app with a loopback callback: registered as such (RFC 7591).
    const reg = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ application_type: 'native', client_name: 'MCP conformance', redirect_uris: [`http://127.0.0.1:${port}/callback`] }) });
    const { client_id: clientId } = (await reg.json()) as { client_id: string };
    out = await mkdtemp(join(tmpdir(), 'tes-conformance-as-'));
    const settings = join(out, 'settings.json');
    await writeFile(settings, JSON.stringify({ url: s.base, clientId, resource: `${s.base}/v1/mcp/dbapp` }));

    // The port on the command line: the option's default (3000) overrides a settings file's `port`.
    cli = spawn(process.execPath, [CLI, 'authorization', '--file', settings, '--port', String(port), '-o', join(out, 'results')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => cli!.once('exit', resolve));
    // The user: as soon as the suite prints where to sign in, the browser goes there.
    const authorizationUrl = await new Promise<string>((resolve, reject) => {
      cli!.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const url = new RegExp(`^${s.base.replace(/[.]/g, '\\.')}/oauth/authorize\\?\\S+$`, 'm').exec(stdout)?.[0];
        // …and its callback server listens.
        if (url && stdout.includes('Callback server started')) resolve(url);
      });
      void exited.then(() => reject(new Error(`the suite ended without an authorization URL:\n${stdout}`)));
    });
    const browser = new Browser();
    const form = await browser.request(authorizationUrl);
    const consent = await browser.submit(form, 'sign-in', { service_key: key });
    signedIn = new URL((await browser.submit(consent, 'consent', { decision: 'allow' })).url);
    exitCode = await exited;
    for (const dir of await readdir(join(out, 'results'))) {
      const scenario = /^authorization-server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1];
      if (scenario) results.set(scenario, JSON.parse(await readFile(join(out, 'results', dir, 'checks.json'), 'utf8')) as Check[]);
    }
  }, 120_000);

  afterAll(async () => {
    // A sign-in that failed leaves the suite waiting for its callback (5 minutes): it ends with the test.
    if (cli && cli.exitCode === null) cli.kill();
    await s?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it.each(SCENARIOS)('%s passes every check', (scenario) => {
    const checks = results.get(scenario);
    expect(checks, `the suite ran no scenario "${scenario}"`).toBeDefined();
    expect(checks!.filter((c) => c.status !== 'SUCCESS').map((c) => `${c.id}: ${c.status} ${c.errorMessage ?? ''}`)).toEqual([]);
    expect(checks!.length).toBeGreaterThan(0);
  });

  it("ran every scenario of the command; the code reached the suite's loopback callback with iss", () => {
    expect([...results.keys()].sort()).toEqual([...SCENARIOS].sort());
    expect(exitCode).toBe(0);
    expect(`${signedIn.origin}${signedIn.pathname}`).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(signedIn.searchParams.get('iss')).toBe(s.base);
  });
});
