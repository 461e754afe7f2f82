import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { tasksSettled } from '../../shared/mcp/tasks';
import { Browser as IdentityBrowser, connectedDbapp, hostSignIn, localServer } from '../identity/helpers';

/**
 * The pages a person sees, in a real browser (headless Chromium): sign-in, consent, connect,
 * connected and the dead ends' pages. Each at 375 px and 1280 px: nothing wider than the window,
 * nothing cut off, no CSP refusal, and no serious or critical axe-core finding; and the flows end
 * to end — sign-in through the vendor twin with toolsets chosen, deny, back to the host, expired
 * links. PAGES_SCREENSHOTS=<dir> keeps the screenshots (the README's come from here).
 */

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p): p is string => !!p && existsSync(p));
if (!CHROMIUM) console.warn('pages browser test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.PAGES_SCREENSHOTS;

/** Run in the page (a string: the project's types have no DOM): sideways scroll, elements outside the window or cut off, the body's font. */
const LAYOUT = `(() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > vw) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || el.closest('details:not([open])')) continue;
    const label = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.textContent || '').trim().slice(0, 30) + '"';
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(label + ' outside the window (' + Math.round(r.left) + '-' + Math.round(r.right) + ' of ' + vw + ')');
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)) out.push(label + ' is cut off (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
  }
  return { out, font: getComputedStyle(document.body).fontFamily };
})()`;

describe.skipIf(!CHROMIUM)('pages in a real browser (headless Chromium, axe-core)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let browser: Browser;
  let client: string;
  const redirect = () => `${s.base}/host-callback`;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = (resource: string, scope?: string) =>
    `${s.base}/oauth/authorize?${new URLSearchParams({ client_id: client, redirect_uri: redirect(), response_type: 'code', state: 'st-9', resource, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...(scope ? { scope } : {}) })}`;

  beforeAll(async () => {
    s = await localServer();
    const reg = await fetch(`${s.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect()], client_name: 'Claude Desktop' }) });
    client = ((await reg.json()) as { client_id: string }).client_id;
    browser = await chromium.launch({ executablePath: CHROMIUM!, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** A page in a fresh context, recording CSP refusals and requests that leave the server. */
  async function open(width = 375) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    // The stylesheet and anything else a page loads must load (the page itself may be a 4xx, the browser's favicon probe a 404).
    page.on('response', (r) => {
      if (r.request().resourceType() !== 'document' && !r.url().endsWith('/favicon.ico') && r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(s.base)) problems.push(`left the server: ${r.url()}`);
    });
    return { page, problems, close: () => context.close() };
  }

  /**
   * The page at both widths: no horizontal scroll, no element past the right edge or clipped in its
   * box, the stylesheet applied, no CSP refusal, no serious or critical axe finding.
   */
  async function check(page: Page, problems: string[], name: string) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const layout = (await page.evaluate(LAYOUT)) as { out: string[]; font: string };
      expect(layout.out, `${name} at ${width} px`).toEqual([]);
      expect(layout.font, `${name}: the stylesheet is applied`).toContain('system-ui');
      const shot = await page.screenshot({ fullPage: true });
      expect(shot.subarray(1, 4).toString()).toBe('PNG');
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ fullPage: true, path: join(SHOTS, `${name}-${width}.png`) });
      }
      // axe-core through the DevTools protocol: the page's CSP allows no script of its own.
      if (!(await page.evaluate("'axe' in window"))) await page.evaluate(AXE);
      const found = (await page.evaluate(`axe.run({ resultTypes: ['violations'] }).then((r) => r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`)) as string[];
      expect(found, `${name} at ${width} px`).toEqual([]);
    }
    expect(problems, name).toEqual([]);
  }

  const hostAnswer = (url: string) => Object.fromEntries(new URL(url).searchParams);

  it('signs in through the vendor (the default), shows the account on a consent page of checkboxes, and issues the toolsets chosen', async () => {
    const { page, problems, close } = await open();
    await page.goto(authorize(`${s.base}/v1/mcp/collab`, 'items tasks'));
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign in');
    await expect(page.locator('#unverified').innerText()).resolves.toBe('unverified');
    await expect(page.locator('#redirect-host').innerText()).resolves.toBe(new URL(s.base).host);
    // The service key is the alternative, folded away, saying where keys come from.
    await expect(page.locator('#key-sign-in').getAttribute('open')).resolves.toBeNull();
    await expect(page.locator('#key-sign-in').innerText()).resolves.toContain('Use a service key instead');
    await check(page, problems, 'sign-in');

    await page.getByRole('button', { name: 'Continue with Podio' }).click();
    // The vendor's own sign-in page (the twin's), then back to our consent page.
    await page.locator('button[value=allow]').click();
    await page.waitForURL(/\/oauth\/authorize\?consent=/);
    await expect(page.locator('h1').innerText()).resolves.toBe('Choose what to share');
    await expect(page.locator('.account').innerText()).resolves.toBe('Podio: Ann Becker · ann.becker@sandbox-co.test');
    const checked = () => page.locator('input[name=toolsets]:checked').evaluateAll((els) => els.map((e) => e.getAttribute('value')));
    expect(await checked()).toEqual(['items', 'tasks']);
    await expect(page.getByRole('checkbox', { name: /^comments/ }).isChecked()).resolves.toBe(false);
    await expect(page.locator('label:has(input[value=search]) .tag').innerText()).resolves.toMatch(/^reads$/i);
    await expect(page.locator('#expiry').innerText()).resolves.toMatch(/1 hour at a time.*30 days unused/);
    await check(page, problems, 'consent');

    // Keyboard: the toolsets and the switch take focus and Space.
    await page.getByRole('checkbox', { name: /^tasks/ }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: /^Read-only/ }).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/host-callback\?/);
    const back = hostAnswer(page.url());
    expect(back.state).toBe('st-9');
    const token = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: back.code!, code_verifier: verifier, client_id: client, redirect_uri: redirect() }) });
    const granted = (await token.json()) as { access_token: string; scope: string };
    expect(granted.scope).toBe('items');
    // The token works at the endpoint, read-only: only reading tools of the items toolset are listed.
    const listed = await fetch(`${s.base}/v1/mcp/collab`, { method: 'POST', headers: { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    const tools = ((await listed.json()) as { result: { tools: { name: string; annotations?: { readOnlyHint?: boolean } }[] } }).result.tools;
    expect(tools.map((t) => t.name)).toContain('filterItems');
    expect(tools.map((t) => t.name)).not.toContain('createItem');
    await close();
  }, 120_000);

  it('deny and "Back to the host" return access_denied with a description to the redirect URI', async () => {
    const { page, problems, close } = await open(1280);
    await page.goto(authorize(`${s.base}/v1/mcp/crm`));
    await page.getByRole('button', { name: 'Back to Claude Desktop' }).click();
    await page.waitForURL(/\/host-callback\?/);
    expect(hostAnswer(page.url())).toMatchObject({ error: 'access_denied', error_description: 'The user went back without signing in.', state: 'st-9' });

    await page.goto(authorize(`${s.base}/v1/mcp/crm`));
    await page.getByRole('button', { name: 'Continue with HubSpot' }).click();
    await page.locator('button[value=allow]').click();
    await page.waitForURL(/\/oauth\/authorize\?consent=/);
    // The account by its vendor identity: the installing user and the portal.
    await expect(page.locator('.account').innerText()).resolves.toBe('HubSpot CRM: jane@sandbox-crm.test · sandbox-crm.test');
    expect(await page.locator('input[name=toolsets]:checked').count()).toBe(7);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(/\/host-callback\?/);
    expect(hostAnswer(page.url())).toMatchObject({ error: 'access_denied', error_description: 'The user denied access.', state: 'st-9' });
    expect(problems).toEqual([]);
    await close();
  }, 120_000);

  it('a key with no account to use says what to do and goes back to the host', async () => {
    const { key } = await s.createKey('tenant-pages', { platforms: ['dbapp'] });
    const { page, problems, close } = await open();
    await page.goto(authorize(`${s.base}/v1/mcp/dbapp`));
    // Tape connects with a key the person pastes; the service key is the operator's alternative, folded away.
    await expect(page.locator('#key-sign-in').getAttribute('open')).resolves.toBeNull();
    await page.locator('#key-sign-in summary').click();
    await page.getByLabel('Service key').fill(key);
    await page.getByRole('button', { name: 'Continue with the key', exact: true }).click();
    await expect(page.locator('#no-connection').innerText()).resolves.toContain('Tenant "tenant-pages" has no connected Tape account');
    // The way on from here: the person's own Tape key.
    expect(await page.getByLabel('Your Tape API key (user_key_…)').count()).toBe(1);
    await check(page, problems, 'no-account');
    await page.getByRole('button', { name: 'Back to Claude Desktop' }).click();
    await page.waitForURL(/\/host-callback\?/);
    expect(hostAnswer(page.url())).toMatchObject({ error: 'access_denied', error_description: `The user has no account this service can use for ${s.base}/v1/mcp/dbapp.` });
    await close();
  }, 120_000);

  it('connects a Tape account by pasting its key on the sign-in page: a wrong key says so and offers Back; the right one goes on to consent', async () => {
    const { page, problems, close } = await open();
    page.on('request', (r) => {
      if (r.url().includes('user_key_')) problems.push(`a key in a URL: ${r.url()}`);
    });
    await page.goto(authorize(`${s.base}/v1/mcp/dbapp`));
    const field = page.getByLabel('Your Tape API key (user_key_…)');
    await expect(field.getAttribute('type')).resolves.toBe('password');
    // The line on where Tape shows the key is the field's description.
    await expect(page.locator('#vendor_key_dbapp-where').innerText()).resolves.toContain('Preferences, then API');
    await expect(field.getAttribute('aria-describedby')).resolves.toBe('vendor_key_dbapp-where');
    await check(page, problems, 'sign-in-vendor-key');

    await field.fill('user_key_wrongwrongwrongwrong000000000');
    await page.getByRole('button', { name: 'Continue with the Tape key' }).click();
    await expect(page.locator('#key-refused').innerText()).resolves.toContain('Tape did not accept this key');
    // Never echoed: the field is empty again.
    await expect(page.getByLabel('Your Tape API key (user_key_…)').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain('user_key_wrong');
    await check(page, problems, 'key-refused');

    await page.getByLabel('Your Tape API key (user_key_…)').fill(SANDBOX_KEYS.owner);
    await page.getByRole('button', { name: 'Continue with the Tape key' }).click();
    await expect(page.locator('h1').innerText()).resolves.toBe('Choose what to share');
    await expect(page.locator('.account').innerText()).resolves.toMatch(/^Tape: John Doe · /);
    // One sign-in may cover the other endpoints of this account's platform: here the combined one, unchosen.
    await expect(page.locator('#endpoints legend').innerText()).resolves.toBe('Use this sign-in for');
    await expect(page.getByRole('checkbox', { name: /^Every platform/ }).isChecked()).resolves.toBe(false);
    await check(page, problems, 'consent-endpoints');
    await page.getByRole('checkbox', { name: /^Every platform/ }).check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/host-callback\?/);
    const token = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: hostAnswer(page.url()).code!, code_verifier: verifier, client_id: client, redirect_uri: redirect(), resource: `${s.base}/v1/mcp` }) });
    const granted = (await token.json()) as { access_token: string };
    const listed = await fetch(`${s.base}/v1/mcp`, { method: 'POST', headers: { authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(listed.status).toBe(200);
    const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toContain('dbapp_listWorkspaces');
    await close();
  }, 120_000);

  it('consent offers the other endpoints a key has accounts for, each with its account and toolsets, unchosen', async () => {
    const { key } = await connectedDbapp(s, 'tenant-endpoints', { platforms: ['dbapp', 'crm'], manage_connections: true });
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'jane', auth: 'oauth' } });
    await new IdentityBrowser().connectOAuth(created.body.data.connect_url);
    const { page, problems, close } = await open();
    await page.goto(authorize(`${s.base}/v1/mcp/crm`));
    await page.locator('#key-sign-in summary').click();
    await page.getByLabel('Service key').fill(key);
    await page.getByRole('button', { name: 'Continue with the key', exact: true }).click();
    const tape = page.getByRole('checkbox', { name: /^Tape/ });
    await expect(tape.isChecked()).resolves.toBe(false);
    await expect(page.locator('#endpoints').innerText()).resolves.toContain(`${s.base}/v1/mcp/dbapp`);
    await expect(page.locator('#endpoints input[name=also_toolsets][value="dbapp:records"]').isChecked()).resolves.toBe(true);
    await check(page, problems, 'consent-other-endpoints');
    await tape.check();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/host-callback\?/);
    const first = await fetch(`${s.base}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: hostAnswer(page.url()).code!, code_verifier: verifier, client_id: client, redirect_uri: redirect(), resource: `${s.base}/v1/mcp/dbapp` }) });
    expect(((await first.json()) as { scope: string }).scope.split(' ')).toContain('records');
    await close();
  }, 120_000);

  it('Back to the host from a refused key returns access_denied', async () => {
    const { page, close } = await open(1280);
    await page.goto(authorize(`${s.base}/v1/mcp/realty`));
    await page.getByLabel('Your BatchData API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Continue with the BatchData key' }).click();
    await expect(page.locator('#key-refused').innerText()).resolves.toContain('BatchData did not accept this key');
    await page.getByRole('button', { name: 'Back to Claude Desktop' }).click();
    await page.waitForURL(/\/host-callback\?/);
    expect(hostAnswer(page.url())).toMatchObject({ error: 'access_denied', state: 'st-9' });
    await close();
  }, 120_000);

  it('the operator console: admin sign-in, a key created with a policy and shown once, rotated, revoked; forms refused without the session\'s token', async () => {
    const { page, problems, close } = await open(1280);
    await page.goto(`${s.base}/console`);
    await check(page, problems, 'console-sign-in');
    await page.getByLabel('Admin credential').fill('not-it');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#refused').innerText()).resolves.toContain('not the admin credential');
    await page.getByLabel('Admin credential').fill('adm_test_credential');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('h2#pane-keys').innerText()).resolves.toBe('Service keys');

    await page.getByLabel('Tenant').fill('acme');
    await page.getByLabel('Name').fill('nightly sync');
    await page.getByRole('checkbox', { name: /^crm/ }).check();
    await page.getByLabel(/^Toolsets/).fill('deals, contacts');
    await page.getByRole('checkbox', { name: /^Read-only/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').innerText();
    expect(key).toMatch(/^tes_/);
    // The key works, under the policy the form gave it.
    const made = (await s.api('GET', '/v1/admin/keys?tenant=acme', { key: 'adm_test_credential' })).body.data.keys[0];
    expect(made).toMatchObject({ tenant: 'acme', name: 'nightly sync', status: 'active', policy: { platforms: ['crm'], toolsets: ['deals', 'contacts'], read_only: true } });
    await check(page, problems, 'console');
    // Shown once: the console lists it without the key.
    await page.goto(`${s.base}/console`);
    expect(await page.content()).not.toContain(key);
    await page.locator(`form[action="/console/keys/${made.id}/rotate"] button`).click();
    const rotated = await page.locator('#new-key').innerText();
    expect(rotated).not.toBe(key);
    const listed = (await s.api('GET', '/v1/admin/keys?tenant=acme', { key: 'adm_test_credential' })).body.data.keys as { id: string; status: string; rotated_from?: string }[];
    const next = listed.find((k) => k.rotated_from === made.id)!;
    await page.locator(`form[action="/console/keys/${next.id}/revoke"] button`).click();
    await expect(page.locator('[role=status]').innerText()).resolves.toContain(`Revoked ${next.id}`);
    expect((await s.api('GET', `/v1/admin/keys/${next.id}`, { key: 'adm_test_credential' })).body.data.status).toBe('revoked');

    // A form from elsewhere: the session's cookie without its token, or another origin, is refused; no cookie is a new sign-in.
    const cookie = (await page.context().cookies()).find((k) => k.name === 'tes_console')!;
    const post = (headers: Record<string, string>, body: string) => fetch(`${s.base}/console/keys`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    expect((await post({ cookie: `tes_console=${cookie.value}` }, 'tenant=evil&platforms=crm')).status).toBe(403);
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    expect((await post({ cookie: `tes_console=${cookie.value}`, origin: 'https://evil.example' }, `tenant=evil&platforms=crm&csrf=${csrf}`)).status).toBe(403);
    expect((await post({ cookie: `tes_console=${cookie.value}`, 'sec-fetch-site': 'cross-site' }, `tenant=evil&platforms=crm&csrf=${csrf}`)).status).toBe(403);
    expect((await post({}, `tenant=evil&platforms=crm&csrf=${csrf}`)).status).toBe(401);
    expect((await s.api('GET', '/v1/admin/keys?tenant=evil', { key: 'adm_test_credential' })).body.data.keys).toEqual([]);
    await close();
  }, 120_000);

  it('every console pane with seeded data: an approval decided from the console (by an admin key), a grant revoked, the audit filtered and paged with its chart', async () => {
    // Seeded as users would: an account connected through the twin, an event subscription, an MCP task, a held call, a host signed in.
    const acme = await connectedDbapp(s, 'console-co');
    expect((await s.call(acme.key, acme.connection, 'dbapp/subscribeEvents', { app_id: 902, event_types: ['record.update'] })).status).toBe(200);
    const task = await fetch(`${s.base}/v1/mcp/dbapp?connection=${acme.connection}`, { method: 'POST', headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: 902, inputs: [{ fields: { deal_name: 'Console task', stage: ['Discovery'], amount: 1 } }] }, task: { ttl: 600_000 } } }) });
    expect(((await task.json()) as any).result.task.taskId).toBeTruthy();
    await tasksSettled();
    const held = await s.createKey('console-co', { platforms: ['dbapp'], approval: 'writes' } as never);
    for (const name of ['Console held 1', 'Console held 2']) expect((await s.call(held.key, acme.connection, 'dbapp/createWorkspace', { name, type: 'open' })).body.error.details.reason).toBe('approval_required');
    const signedIn = await hostSignIn(s.base, `${s.base}/v1/mcp/dbapp`, (b, form) => b.submit(form, 'sign-in', { service_key: acme.key }));
    const admin = await s.createKey('console-co', { platforms: ['dbapp'], admin: true } as never);

    const { page, problems, close } = await open(1280);
    // A key without "admin" is refused; an admin key signs in.
    await page.goto(`${s.base}/console`);
    await page.getByLabel(/^Admin credential/).fill(acme.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#refused').innerText()).resolves.toContain('"admin": true');
    await page.getByLabel(/^Admin credential/).fill(admin.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('main').innerText()).resolves.toContain(`Signed in as admin key ${admin.id}`);

    const pane = async (id: string, title: string) => {
      await page.getByRole('navigation', { name: 'Panes' }).getByRole('link', { name: title }).click();
      await expect(page.locator(`h2#pane-${id}`).innerText()).resolves.toBe(title);
      return page.locator(`section[aria-labelledby=pane-${id}]`);
    };
    let section = await pane('connections', 'Connections');
    await expect(section.locator('tbody').innerText()).resolves.toContain(acme.connection);
    await expect(section.locator('tbody').innerText()).resolves.toContain('active');
    await check(page, problems, 'console-connections');
    section = await pane('oauth', 'OAuth clients and grants');
    await expect(section.innerText()).resolves.toContain('Test host');
    await check(page, problems, 'console-oauth');
    section = await pane('subscriptions', 'Event subscriptions');
    await expect(section.locator('tbody').innerText()).resolves.toContain('console-co');
    await check(page, problems, 'console-subscriptions');
    section = await pane('tasks', 'MCP tasks');
    await expect(section.locator('tbody').innerText()).resolves.toContain('completed');
    await check(page, problems, 'console-tasks');

    // Approvals: each pending one with its preview; approved from the console, by the admin key.
    section = await pane('approvals', 'Approvals');
    const cards = section.locator('article');
    await expect(cards.count()).resolves.toBe(2);
    await expect(cards.first().locator('pre.preview').innerText()).resolves.toContain('POST');
    await check(page, problems, 'console-approvals');
    const pending = (await s.api('GET', '/v1/admin/approvals?tenant=console-co&status=pending', { key: 'adm_test_credential' })).body.data.approvals as { id: string }[];
    await page.locator(`form[action="/console/approvals/${pending[0]!.id}/approve"] button`).click();
    await expect(page.locator('[role=status]').innerText()).resolves.toContain(`Approved ${pending[0]!.id}`);
    expect((await s.api('GET', `/v1/admin/approvals/${pending[0]!.id}`, { key: 'adm_test_credential' })).body.data).toMatchObject({ status: 'approved', decided_by: `key:${admin.id}` });
    await expect(page.locator('section[aria-labelledby=pane-approvals] article').count()).resolves.toBe(1);

    // A grant revoked from the console: its tokens are refused.
    section = await pane('oauth', 'OAuth clients and grants');
    await section.getByRole('button', { name: 'Revoke' }).first().click();
    await expect(page.locator('[role=status]').innerText()).resolves.toContain('Revoked the grant');
    const listed = await fetch(`${s.base}/v1/mcp/dbapp`, { method: 'POST', headers: { authorization: `Bearer ${signedIn.tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(listed.status).toBe(401);

    // The audit trail: filtered by tenant and tool, paged, with its chart and the chart's table; the console's actions are in it, by the admin key.
    section = await pane('audit', 'Audit trail');
    await page.getByLabel('Tenant', { exact: true }).selectOption('console-co');
    await page.getByLabel('Tool', { exact: true }).fill('createWorkspace');
    await page.getByRole('button', { name: 'Filter' }).click();
    const trail = page.locator('section[aria-labelledby=pane-audit] > .table tbody');
    // The two held calls, their two requests and the approval: nothing else is createWorkspace.
    await expect(trail.locator('tr').count()).resolves.toBe(5);
    await expect(trail.innerText()).resolves.toMatch(/FORBIDDEN[\s\S]*FORBIDDEN/);
    await expect(page.locator('svg.chart title').textContent()).resolves.toBe('Calls per tool and outcome over time');
    await expect(page.locator('svg.chart desc').textContent()).resolves.toContain('2 calls');
    await check(page, problems, 'console-audit');
    await page.goto(`${s.base}/console/audit?tenant=console-co&limit=2`);
    const firstPage = await page.locator('section[aria-labelledby=pane-audit] > .table tbody').innerText();
    await page.getByRole('link', { name: 'Next page' }).click();
    const secondPage = await page.locator('section[aria-labelledby=pane-audit] > .table tbody').innerText();
    expect(secondPage).not.toBe(firstPage);
    await page.goto(`${s.base}/console/audit?tenant=console-co&tool=revokeGrant`);
    await expect(page.locator('section[aria-labelledby=pane-audit] > .table tbody').innerText()).resolves.toContain(admin.id);
    await page.goto(`${s.base}/console/audit?tenant=console-co&outcome=approved`);
    await expect(page.locator('section[aria-labelledby=pane-audit] > .table tbody').innerText()).resolves.toContain(admin.id);
    // An admin key revoked: its session ends with it.
    await s.api('DELETE', `/v1/admin/keys/${admin.id}`, { key: 'adm_test_credential' });
    await page.goto(`${s.base}/console/keys`);
    await expect(page.locator('#console-sign-in').count()).resolves.toBe(1);
    await close();
  }, 180_000);

  it('connect and connected pages name the account; expired links say what to do', async () => {
    const { key } = await s.createKey('tenant-pages', { platforms: ['filebox'] });
    const made = await s.api('POST', '/v1/connections', { key, body: { platform: 'filebox', end_user: 'olivia' } });
    const { page, problems, close } = await open();
    await page.goto(made.body.data.connect_url);
    await expect(page.locator('h1').innerText()).resolves.toBe('Connect ShareFile');
    await check(page, problems, 'connect');
    await page.getByRole('link', { name: 'Continue to ShareFile' }).click();
    await page.locator('button[value=allow]').click();
    await expect(page.locator('#account').innerText()).resolves.toBe('ShareFile: Olivia Bennett · olivia.bennett@acmelegal.example · Acme Legal');
    await check(page, problems, 'connected');
    // The API lists the account too.
    expect((await s.api('GET', `/v1/connections/${made.body.data.connection.id}`, { key })).body.data.account).toEqual({ name: 'Olivia Bennett', email: 'olivia.bennett@acmelegal.example', portal: 'Acme Legal' });

    await page.goto(made.body.data.connect_url);
    await expect(page.locator('h1').innerText()).resolves.toBe('Link expired');
    await expect(page.locator('#refused').innerText()).resolves.toContain('expired or was used');
    await check(page, problems, 'link-expired');
    await page.goto(`${s.base}/oauth/authorize?consent=${randomBytes(24).toString('base64url')}`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Sign-in expired');
    await expect(page.locator('p:not(.brand)').last().innerText()).resolves.toContain('Start again from your MCP host');
    await check(page, problems, 'sign-in-expired');
    await close();
  }, 120_000);
});
