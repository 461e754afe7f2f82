import { randomBytes } from 'node:crypto';
import type { Browser as Chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_KEYS } from '../../infra/twins/kit';
import { CHROMIUM, launchChromium } from '../helpers/chromium';
import { Browser, localServer } from '../identity/helpers';

const ADMIN = 'adm_test_credential';

/** A tenant's dbapp key under `approval: writes` with its connected account, on `s`. */
async function heldKey(s: Awaited<ReturnType<typeof localServer>>, tenant: string) {
  const made = await s.createKey(tenant, { platforms: ['dbapp'], approval: 'writes' } as never);
  const created = await s.api('POST', '/v1/connections', { key: made.key, body: { platform: 'dbapp', end_user: 'user-1', auth: 'api_key' } });
  await new Browser().connectKey(created.body.data.connect_url, SANDBOX_KEYS.owner);
  const connection = created.body.data.connection.id as string;
  /** A held createWorkspace: its approval's details. */
  const hold = async (name: string) => {
    const res = await s.call(made.key, connection, 'dbapp/createWorkspace', { name, type: 'open' });
    expect(res.body.error.details.reason).toBe('approval_required');
    return res.body.error.details as { approval_id: string; approval_url: string };
  };
  return { ...made, connection, hold };
}

describe.skipIf(!CHROMIUM)('the approval page in a real browser (headless Chromium)', () => {
  let ahead = 0;
  let s: Awaited<ReturnType<typeof localServer>>;
  let browser: Chromium;
  let k: Awaited<ReturnType<typeof heldKey>>;
  const steps = async (id: string) => {
    const page = await s.api('GET', `/v1/admin/audit?tenant=pages&limit=500`, { key: ADMIN });
    return page.body.data.records.filter((r: { kind: string; approval_id?: string }) => r.kind === 'approval' && r.approval_id === id).map((r: { outcome: string }) => r.outcome);
  };
  beforeAll(async () => {
    s = await localServer({}, { now: () => Date.now() + ahead });
    k = await heldKey(s, 'pages');
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s.close();
  });

  it('shows the tool, the connection and the preview under a strict CSP; Approve approves once, a double click and a second visit change nothing', async () => {
    const held = await k.hold('Page workspace');
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto(held.approval_url);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toBe("default-src 'self'; frame-ancestors 'none'");
    expect(await page.locator('#facts').innerText()).toContain('dbapp/createWorkspace');
    expect(await page.locator('#facts').innerText()).toContain(k.connection);
    expect(await page.locator('#preview').innerText()).toContain('POST');
    expect(await page.locator('#arguments').innerText()).toContain('Page workspace');
    // A second tab holds the same form, as a person who opened the link twice.
    const other = await browser.newPage();
    await other.goto(held.approval_url);
    await page.dblclick('#approve');
    await page.waitForSelector('#approved, #settled');
    // The other tab's click comes after the decision: it changes nothing, and says so.
    await Promise.all([other.waitForNavigation(), other.click('#reject')]);
    expect(await other.locator('#settled').getAttribute('data-status')).toBe('approved');
    // Opening the link again shows the decision, no form.
    await page.goto(held.approval_url);
    expect(await page.locator('#settled').getAttribute('data-status')).toBe('approved');
    expect(await page.locator('form').count()).toBe(0);
    await other.close();
    expect(await steps(held.approval_id)).toEqual(['approved', 'requested']);
    expect(violations).toEqual([]);
    const status = await s.api('GET', `/v1/admin/approvals/${held.approval_id}`, { key: ADMIN });
    expect(status.body.data.status).toBe('approved');
    await page.close();
  });

  it('Reject rejects: the call then never runs', async () => {
    const held = await k.hold('Rejected workspace');
    const page = await browser.newPage();
    await page.goto(held.approval_url);
    await Promise.all([page.waitForNavigation(), page.click('#reject')]);
    expect(await page.locator('#rejected').innerText()).toContain('will not run');
    const retry = await s.api('POST', '/v1/tools/dbapp/createWorkspace', { key: k.key, connection: k.connection, body: { name: 'Rejected workspace', type: 'open' } });
    expect(retry.status).toBe(403);
    await page.close();
  });

  it('a foreign link and an expired one show a clear page and no form', async () => {
    const page = await browser.newPage();
    const unknown = await page.goto(`${s.base}/v1/approve/${randomBytes(32).toString('base64url')}`);
    expect(unknown!.status()).toBe(404);
    expect(await page.locator('#unknown').innerText()).toContain('not valid');
    expect(await page.locator('form').count()).toBe(0);
    const held = await k.hold('Late workspace');
    ahead = 16 * 60 * 1000;
    try {
      const late = await page.goto(held.approval_url);
      expect(late!.status()).toBe(410);
      expect(await page.locator('#expired').innerText()).toContain('expired');
      expect(await page.locator('form').count()).toBe(0);
    } finally {
      ahead = 0;
    }
    await page.close();
  });
});

describe('APPROVAL_SIGN_IN=required: only an approver key of the tenant decides, never the asking key', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  beforeAll(async () => {
    s = await localServer({ APPROVAL_SIGN_IN: 'required' });
  });
  afterAll(() => s.close());

  it('refuses the link alone, the asking key and a key without "approver"; an approver decides and is named', async () => {
    const k = await heldKey(s, 'signed');
    const held = await k.hold('Signed workspace');
    const plain = await s.createKey('signed', { platforms: ['dbapp'] });
    const approver = await s.createKey('signed', { platforms: ['dbapp'], approver: true } as never);
    const stranger = await s.createKey('elsewhere', { platforms: ['dbapp'], approver: true } as never);
    const browser = new Browser();
    const form = await browser.request(held.approval_url);
    expect(form.html).toContain('name="approver_key"');
    // A form posted without the page's CSRF token is refused.
    const forged = await fetch(held.approval_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=approve&csrf=forged&approver_key=${approver.key}` });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('id="csrf"');
    for (const who of ['', k.key, plain.key, stranger.key]) {
      const refused = await browser.submit(form, 'decide', { decision: 'approve', approver_key: who });
      expect(refused.status).toBe(403);
      expect(refused.html).toContain('id="not-approver"');
    }
    const done = await browser.submit(form, 'decide', { decision: 'approve', approver_key: approver.key });
    expect(done.html).toContain('id="approved"');
    const status = await s.api('GET', `/v1/admin/approvals/${held.approval_id}`, { key: ADMIN });
    expect(status.body.data).toMatchObject({ status: 'approved', decided_by: `key:${approver.id}` });
    // Decided: a later post, even with a forged token, changes nothing.
    const late = await fetch(held.approval_url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'decision=reject&csrf=forged' });
    expect(await late.text()).toContain('data-status="approved"');
  });
});
