import type { ConnectionRecord } from '../connections';
import type { Policy } from '../policy';
import { toolsetInfo, toolsetsOf, vendorName, type PlatformNames } from '../providers';
import { esc } from '../pages/layout';
import { accountLabel, facts } from '../pages/parts';
import { ACCESS_SECONDS, REFRESH_SECONDS, type ClientRecord } from './grants';
import { platformOfScope, toolsetOfScope, toolsetsOn } from './scopes';

/**
 * The bodies of the sign-in pages of the built-in authorization server (routes.ts answers them in
 * the pages' layout): sign-in, no account to use, consent. Each offers a way on or back to the
 * host, so nobody is left on a page with nothing to do.
 */

export const AUTHORIZE_PATH = '/oauth/authorize';

/** The host as the pages name it. */
export interface Host {
  name: string;
  /** Known by its address: a client metadata document on https (a dynamically registered client named itself). */
  verified: boolean;
  /** Where the answer goes: the redirect URI's host. */
  redirectHost: string;
}

export function hostOf(client: ClientRecord, redirectUri: string): Host {
  const metadataDocument = client.client_id.startsWith('https://');
  let redirectHost = redirectUri;
  try {
    redirectHost = new URL(redirectUri).host || redirectUri;
  } catch {
    // Checked against the client's registered URIs already; shown as written.
  }
  return { name: client.client_name ?? (metadataDocument ? new URL(client.client_id).host : client.client_id), verified: metadataDocument, redirectHost };
}

const hostLine = (host: Host) =>
  `<strong id="host">${esc(host.name)}</strong> ${host.verified ? '<span class="badge ok">verified</span>' : '<span class="badge" id="unverified" title="It named itself; this service cannot confirm who it is.">unverified</span>'}`;

/** The request's parameters, carried by every form of the sign-in page. */
export const hiddenFields = (q: Record<string, string>) => Object.entries(q).map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`).join('');

/** "Back to <host>": the request goes back to the host as access_denied (routes.ts). */
const backForm = (host: Host, hidden: string, reason: 'cancelled' | 'no_account') =>
  `<form id="back" method="post" action="${AUTHORIZE_PATH}">${hidden}<input type="hidden" name="cancel" value="${reason}"><button type="submit" class="secondary">Back to ${esc(host.name)}</button></form>`;

/** Buttons that sign in by connecting a vendor account. */
const vendorForm = (platforms: PlatformNames, vendors: string[], hidden: string, lead: string) =>
  `<form id="connect-sign-in" method="post" action="${AUTHORIZE_PATH}">${hidden}<p>${esc(lead)}</p><div class="actions">${vendors.map((p) => `<button type="submit" name="connect" value="${esc(p)}">Continue with ${esc(vendorName(platforms, p))}</button>`).join('')}</div></form>`;

/** A platform whose account a person may connect on the sign-in page by pasting its API key (routes.ts keyConnectable). */
export interface KeyVendor {
  platform: string;
  /** What the vendor calls the key (the descriptor's keyLabel). */
  label: string;
  /** Where the vendor shows it, in one line (the descriptor's keyWhere). */
  where?: string;
}

/**
 * "Paste your <Vendor> API key": a form per platform that connects the account with its key and
 * goes on to consent. The key is a password field, posted, never put back in a page or a URL.
 */
export const keyForms = (platforms: PlatformNames, keyVendors: readonly KeyVendor[], hidden: string) =>
  keyVendors.map((k) => {
    const vendor = vendorName(platforms, k.platform);
    const field = `vendor_key_${esc(k.platform)}`;
    return `<form id="key-connect-${esc(k.platform)}" class="key-connect" method="post" action="${AUTHORIZE_PATH}">${hidden}<input type="hidden" name="key_platform" value="${esc(k.platform)}"><p>Sign in by pasting your ${esc(vendor)} API key. It is checked with ${esc(vendor)}, kept encrypted, and never shown again.</p><label for="${field}">Your ${esc(k.label)}</label><input id="${field}" name="vendor_key" type="password" autocomplete="off" required${k.where ? ` aria-describedby="${field}-where"` : ''}>${k.where ? `<p class="muted" id="${field}-where">${esc(k.where)}</p>` : ''}<div class="actions"><button type="submit">Continue with the ${esc(vendor)} key</button></div></form>`;
  }).join('');

const KEY_SOURCE = 'Service keys (tes_…) are handed out by whoever runs this service, from its console at /console or with npm run keys -- create.';

/** Step one: who the host is, then sign in — with a vendor account where one can be connected, else a service key — or go back. */
export function signInBody(platforms: PlatformNames, host: Host, resource: string, platform: string | undefined, vendors: string[], query: Record<string, string>, keyVendors: readonly KeyVendor[] = []): string {
  const hidden = hiddenFields(query);
  const where = platform ? `your ${esc(vendorName(platforms, platform))} tools` : 'your tools';
  const own = vendors.length > 0 || keyVendors.length > 0;
  const keyForm = `<form id="sign-in" method="post" action="${AUTHORIZE_PATH}">${hidden}<label for="service_key">Service key</label><input id="service_key" name="service_key" type="password" autocomplete="off" required placeholder="tes_…"><div class="actions"><button type="submit"${own ? ' class="secondary"' : ''}>Continue with the key</button></div></form>`;
  const noVendor = platform && !own
    ? `<p class="notice" id="key-only">${esc(vendorName(platforms, platform))} accounts are connected with an API key by the operator of this service, so signing in here takes a service key. If you have none, ask them for one, or go back.</p>`
    : '';
  return `<p>${hostLine(host)} wants to use ${where}.</p>${facts([['Tools at', `<code>${esc(resource)}</code>`], ['Returns you to', `<span id="redirect-host">${esc(host.redirectHost)}</span>`]])}${
    vendors.length ? vendorForm(platforms, vendors, hidden, 'Sign in with your account there; you choose what to share next.') : noVendor
  }${keyForms(platforms, keyVendors, hidden)}<details id="key-sign-in"${own ? '' : ' open'}><summary>${own ? 'Use a service key instead' : 'Sign in with a service key'}</summary><p class="muted">${esc(KEY_SOURCE)}</p>${keyForm}</details>${backForm(host, hidden, 'cancelled')}`;
}

/**
 * A pasted API key that did not connect the account (refused by the vendor, empty, or not
 * checkable now): why, the form again (empty: the key is never put back in a page), and back.
 */
export function keyRefusedBody(platforms: PlatformNames, host: Host, why: string, keyVendor: KeyVendor, query: Record<string, string>): string {
  const hidden = hiddenFields(query);
  return `<p id="key-refused" class="notice bad">${esc(why)}</p>${keyForms(platforms, [keyVendor], hidden)}${backForm(host, hidden, 'cancelled')}`;
}

/** A service key whose tenant has no account to use: what to do, another way in, or back. */
export function noAccountBody(platforms: PlatformNames, host: Host, tenant: string, platform: string | undefined, vendors: string[], query: Record<string, string>, keyVendors: readonly KeyVendor[] = []): string {
  const hidden = hiddenFields(query);
  const what = platform ? `${vendorName(platforms, platform)} account` : 'account';
  return `<p id="no-connection" class="notice bad">Tenant "${esc(tenant)}" has no connected ${esc(what)} this key may use.</p><p>An account is connected by its owner, through a connect link the operator makes (the console, or <code>POST /v1/connections</code> with a service key). Then sign in again.</p>${
    vendors.length ? vendorForm(platforms, vendors, hidden, 'Or sign in with your own account instead:') : ''
  }${keyForms(platforms, keyVendors, hidden)}${backForm(host, hidden, 'no_account')}`;
}

const days = (s: number) => Math.round(s / 86_400);

/**
 * Step two: what the host gets. The account (by its vendor's name for it), each toolset a
 * checkbox with what it does and whether it writes, read-only as a switch, and how long it lasts.
 * The toolsets the host asked for start chosen (all it may have when it asked for none); ones it
 * asked for but may not have are named.
 */
export function consentBody(names: PlatformNames, host: Host, resource: string, consent: string, connections: ConnectionRecord[], allowed: Policy, requested: readonly string[], extra = '', others: readonly OtherEndpoint[] = []): string {
  const platforms = [...new Set(connections.map((r) => r.platform))];
  const one = platforms.length === 1;
  const mayShare = (p: string) => toolsetsOf(names, p).filter((t) => !allowed.toolsets || toolsetsOn(p, allowed.toolsets).includes(t));
  // A scope applies when it is a toolset of a listed account's platform (the combined endpoint's list names every platform's).
  const applies = (scope: string) => platforms.filter((p) => toolsetsOn(p, [scope]).some((t) => toolsetsOf(names, p).includes(t)));
  const relevant = requested.filter((s) => applies(s).length > 0);
  const refused = [...new Set(relevant.filter((s) => !applies(s).some((p) => mayShare(p).includes(toolsetOfScope(s)))).map((s) => (one ? toolsetOfScope(s) : s)))];
  const chosen = (p: string, t: string) => (relevant.length ? toolsetsOn(p, relevant).includes(t) : true);
  const named = [...new Set(requested.map((s) => (s.includes(':') ? s.slice(0, s.indexOf(':')) : undefined)).filter((p): p is string => p !== undefined))];
  const picked = Math.max(0, named.length === 1 ? connections.findIndex((r) => r.platform === named[0]) : 0);

  const accounts = `<fieldset><legend>Account</legend>${connections.map((r, i) => `<label class="choice"><input type="radio" name="connection" value="${esc(r.id)}"${i === picked ? ' checked' : ''}><span class="account">${esc(accountLabel(names, r))}</span></label>`).join('')}</fieldset>`;
  /** A platform's toolsets as checkboxes named `field`, each value bare or qualified with the platform. */
  const toolsetBoxes = (p: string, field: string, qualified: boolean, isChosen: (t: string) => boolean, legend: string) =>
    `<fieldset class="toolsets"><legend>${legend}</legend>${mayShare(p).map((t) => {
      const info = toolsetInfo(names, p, t);
      return `<label class="choice"><input type="checkbox" name="${field}" value="${esc(qualified ? `${p}:${t}` : t)}"${isChosen(t) ? ' checked' : ''}><span><strong>${esc(t)}</strong><span class="tag">${info.writes ? 'reads and writes' : 'reads'}</span><span class="what">${esc(info.what)}</span></span></label>`;
    }).join('')}</fieldset>`;
  const toolsets = platforms.map((p) => toolsetBoxes(p, 'toolsets', !one, (t) => chosen(p, t), `What ${esc(host.name)} may use${one ? '' : ` on ${esc(vendorName(names, p))}`}`)).join('');
  const endpoints = others.length ? endpointChoices(names, host, resource, others, platforms, (p) => toolsetBoxes(p, 'also_toolsets', true, (t) => { const asked = requested.filter((s) => platformOfScope(s) === p).map(toolsetOfScope); return asked.length ? asked.includes(t) : true; }, `What ${esc(host.name)} may use there`)) : '';
  const asked = refused.length ? `<p class="notice" id="requested">${esc(host.name)} also asked for <span id="not-shareable">${esc(refused.join(', '))}</span>, which this sign-in may not share.</p>` : '';
  const readOnly = `<label class="switch"><input type="checkbox" name="read_only" value="true"${allowed.read_only ? ' checked disabled' : ''}><span><strong>Read-only</strong><span class="what">${allowed.read_only ? 'Your sign-in is read-only: nothing can be changed.' : 'Only tools that read; nothing can be created, changed or deleted.'}</span></span></label>`;
  const expiry = `Access lasts ${ACCESS_SECONDS / 3600} hour at a time; ${esc(host.name)} renews it for as long as it keeps using it, and it ends after ${days(REFRESH_SECONDS)} days unused. The operator can revoke it at any time.`;
  return `<p>${hostLine(host)} asks to use your account.</p><form id="consent" method="post" action="${AUTHORIZE_PATH}"><input type="hidden" name="consent" value="${esc(consent)}"><input type="hidden" name="toolsets_listed" value="1">${facts([
    ['Tools at', `<code>${esc(resource)}</code>`],
    ['Returns you to', `<span id="redirect-host">${esc(host.redirectHost)}</span>`],
  ])}${accounts}${asked}${toolsets}${endpoints}${readOnly}${extra}<p class="muted" id="expiry">${expiry}</p><div class="actions"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></div></form>`;
}

/** An endpoint of this deployment the consent page offers beside the one signed in at, with the accounts it would act through (none listed: the combined endpoint, which uses those the sign-in names). */
export interface OtherEndpoint {
  resource: string;
  /** Its platform; undefined for the combined endpoint. */
  platform?: string;
  accounts: ConnectionRecord[];
}

/**
 * "Use this sign-in for": this endpoint (always), and each other endpoint the sign-in may cover,
 * unchosen (the default is this endpoint only). A platform's endpoint names its account — a
 * choice when there are several — and, when the page lists no toolsets of that platform above,
 * its toolsets (`toolsetsOf`).
 */
function endpointChoices(names: PlatformNames, host: Host, resource: string, others: readonly OtherEndpoint[], listed: readonly string[], toolsetsOf: (platform: string) => string): string {
  const rows = others.map((o) => {
    const what = o.platform === undefined ? 'Every platform' : vendorName(names, o.platform);
    let account = '';
    if (o.platform !== undefined && o.accounts.length === 1) account = `<span class="what">with ${esc(accountLabel(names, o.accounts[0]!))}</span>`;
    else if (o.platform === undefined) account = `<span class="what">with the accounts this sign-in uses</span>`;
    const select = o.platform !== undefined && o.accounts.length > 1
      ? `<label class="account-choice">Account there${listed.includes(o.platform) ? ' (the one chosen above when it is on this platform)' : ''} <select name="account_${esc(o.platform)}">${o.accounts.map((r) => `<option value="${esc(r.id)}">${esc(accountLabel(names, r))}</option>`).join('')}</select></label>`
      : '';
    const toolsets = o.platform !== undefined && !listed.includes(o.platform) ? toolsetsOf(o.platform) : '';
    return `<div class="endpoint"><label class="choice"><input type="checkbox" name="also" value="${esc(o.resource)}"><span><strong>${esc(what)}</strong> <code>${esc(o.resource)}</code>${account}</span></label>${select}${toolsets}</div>`;
  }).join('');
  return `<fieldset id="endpoints"><legend>Use this sign-in for</legend><label class="choice"><input type="checkbox" checked disabled><span><strong>This endpoint</strong> <code>${esc(resource)}</code></span></label><p class="muted">And, if you choose, the other endpoints of this service (one sign-in: ${esc(host.name)} gets a token for each, and signing out ends all):</p>${rows}</fieldset>`;
}
