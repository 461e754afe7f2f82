import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, connectedDbapp, hostSignIn, localServer } from './helpers';

/**
 * The console's OAuth pane names what each MCP sign-in covers: every endpoint by its path and the
 * account it acts through there (a platform's endpoint its account on that platform, the combined
 * endpoint each of them), as the vendor knows the account — over HTTP, signed in to the console.
 */

const ADMIN = 'adm_test_credential';

describe('the console lists the endpoints a sign-in covers', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let dbappAccount: string;
  let crmAccount: string;
  let key: string;
  beforeAll(async () => {
    s = await localServer();
    // Accounts on crm (HubSpot's sign-in, through the twin) and dbapp (a Tape key) in one tenant.
    ({ key, connection: dbappAccount } = await connectedDbapp(s, 'tenant-covers', { platforms: ['crm', 'dbapp'], manage_connections: true }));
    const created = await s.api('POST', '/v1/connections', { key, body: { platform: 'crm', end_user: 'jane', auth: 'oauth' } });
    expect((await new Browser().connectOAuth(created.body.data.connect_url)).html).toContain('id="connected"');
    crmAccount = created.body.data.connection.id;
  }, 60_000);
  afterAll(() => s.close());

  /** The console's OAuth pane as the admin sees it, and its grant rows by grant id prefix. */
  async function oauthPane() {
    const browser = new Browser();
    await browser.request(`${s.base}/console/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ credential: ADMIN }).toString() });
    const page = await browser.request(`${s.base}/console/oauth`);
    expect(page.status).toBe(200);
    const rows = [...page.html.matchAll(/<tr>(<td data-label="Sign-in">[\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    const cell = (row: string, label: string) => new RegExp(`<td data-label="${label}">([\\s\\S]*?)</td>`).exec(row)?.[1] ?? '';
    return { html: page.html, rows, cell };
  }

  it('a sign-in at crm that also covers dbapp and the combined endpoint: each path with its account', async () => {
    const signedIn = await hostSignIn(s.base, `${s.base}/v1/mcp/crm`, async (b, form) => {
      const consent = await b.submit(form, 'sign-in', { service_key: key });
      // Both other endpoints chosen, as a person ticks the two boxes.
      return { ...consent, html: consent.html.replace(`name="also" value="${s.base}/v1/mcp/dbapp"`, `name="also" value="${s.base}/v1/mcp/dbapp" checked`).replace(`name="also" value="${s.base}/v1/mcp"`, `name="also" value="${s.base}/v1/mcp" checked`) };
    });
    expect(signedIn.tokens.access_token).toMatch(/^tat_/);
    // The admin API keeps the account of each platform with the sign-in.
    const grants = (await s.api('GET', '/v1/admin/oauth/grants?tenant=tenant-covers', { key: ADMIN })).body.data.grants as { resources?: string[]; accounts?: Record<string, string> }[];
    expect(grants[0]).toMatchObject({ accounts: { crm: crmAccount, dbapp: dbappAccount } });
    expect(grants[0]!.resources!.sort()).toEqual([`${s.base}/v1/mcp`, `${s.base}/v1/mcp/crm`, `${s.base}/v1/mcp/dbapp`]);

    const { rows, cell } = await oauthPane();
    const row = rows.find((r) => cell(r, 'Tenant').startsWith('tenant-covers'))!;
    expect(row).toBeDefined();
    const covers = cell(row, 'Covers');
    const lines = covers.replace(/^<div class="covers">|<\/div>$/g, '').split(/<br>(?=<code>\/)/);
    expect(lines).toHaveLength(3);
    // The endpoint signed in at first, then the others as chosen; each platform's through its own account, named as its vendor knows it.
    expect(lines[0]).toBe(`<code>/v1/mcp/crm</code><br><span class="muted">HubSpot CRM: jane@sandbox-crm.test · sandbox-crm.test <code>${crmAccount}</code></span>`);
    const at = (path: string) => lines.find((l) => l.startsWith(`<code>${path}</code>`))!;
    // The Tape account was connected by its key on a connect link: named by its end user.
    expect(at('/v1/mcp/dbapp')).toBe(`<code>/v1/mcp/dbapp</code><br><span class="muted">Tape: user-1 <code>${dbappAccount}</code></span>`);
    // The combined endpoint acts through both.
    expect(at('/v1/mcp')).toContain(crmAccount);
    expect(at('/v1/mcp')).toContain(dbappAccount);
    expect(cell(row, 'Tenant')).toContain('signed in with key');
  });

  it('a sign-in at one endpoint shows that path and its one account', async () => {
    await hostSignIn(s.base, `${s.base}/v1/mcp/dbapp`, (b, form) => b.submit(form, 'sign-in', { service_key: key }));
    const { rows, cell } = await oauthPane();
    const mine = rows.filter((r) => cell(r, 'Tenant').startsWith('tenant-covers'));
    expect(mine).toHaveLength(2);
    // Newest first.
    expect(cell(mine[0]!, 'Covers')).toBe(`<div class="covers"><code>/v1/mcp/dbapp</code><br><span class="muted">Tape: user-1 <code>${dbappAccount}</code></span></div>`);
  });
});
