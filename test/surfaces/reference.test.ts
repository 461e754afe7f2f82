import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../infra/local/server';
import { CHROMIUM, launchChromium } from '../helpers/chromium';

if (!CHROMIUM) console.warn('reference page browser test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

describe.skipIf(!CHROMIUM)('the API reference page in a real browser (headless Chromium)', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  let browser: Browser;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => local.server.close(() => resolve()));
  });

  it('lists every platform, finds a tool, runs it against the local server and shows the answer', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    // Served from the installed package: a request leaving the machine would fail offline.
    page.on('request', (r) => {
      if (!r.url().startsWith(local.base)) external.push(r.url());
    });
    await page.goto(`${local.base}/`);
    await page.waitForSelector('h3.opblock-tag', { timeout: 30_000 });
    const tags = await page.$$eval('h3.opblock-tag', (els) => els.map((e) => e.getAttribute('data-tag')));
    expect(tags).toEqual(Object.keys(local.twins));

    // Find the tool: the page's filter keeps the platform, its section opens, the operation opens.
    await page.fill('.operation-filter-input', 'dbapp');
    await page.locator('h3.opblock-tag').nth(1).waitFor({ state: 'detached' });
    await page.locator('h3.opblock-tag[data-tag="dbapp"]').click();
    const op = page.locator('#operations-dbapp-dbapp_listWorkspaces');
    await op.locator('.opblock-summary').click();
    // "Try it out" is on from the start (tryItOutEnabled): the body editor is there.
    await op.locator('textarea.body-param__text').fill('{}');
    await op.locator('.execute').click();
    const body = op.locator('.live-responses-table .response-col_description pre');
    await body.first().waitFor({ timeout: 30_000 });
    const shown = await body.first().innerText();
    expect(shown).toContain('"success": true');
    expect(shown).toContain('Task management');
    expect(await op.locator('.live-responses-table tbody .response-col_status').first().innerText()).toContain('200');
    expect(external).toEqual([]);
  }, 90_000);
});
