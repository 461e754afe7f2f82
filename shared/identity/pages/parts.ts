import type { Context } from 'hono';
import type { ConnectionRecord } from '../connections';
import { vendorName, type PlatformNames } from '../providers';
import { esc, page } from './layout';

/** A connection as a person knows it: the vendor's name for the account (name, e-mail, portal), else the app's end-user id. */
export function accountLabel(platforms: PlatformNames, r: Pick<ConnectionRecord, 'platform' | 'end_user' | 'account'>): string {
  const vendor = vendorName(platforms, r.platform);
  const who = [r.account?.name, r.account?.email, r.account?.portal].filter((v): v is string => !!v);
  return `${vendor}: ${who.length ? who.join(' · ') : r.end_user}`;
}

/** Facts as a definition list (label → HTML already escaped). */
export const facts = (rows: [string, string][]) => `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;

/** The end of a connect flow: which account was connected. */
export function connectedPage(c: Context, platforms: PlatformNames, r: ConnectionRecord): Response {
  return page(c, 200, 'Connected', `<p id="connected" class="notice ok">Your ${esc(vendorName(platforms, r.platform))} account is connected.</p>${facts([['Account', `<span id="account">${esc(accountLabel(platforms, r))}</span>`], ['Connection', `<code>${esc(r.id)}</code>`]])}<p>You can close this window.</p>`);
}

/** A page that ends a flow with what to do next (expired links, refusals). */
export const stopPage = (c: Context, status: number, title: string, why: string, next: string, id = 'refused') =>
  page(c, status, title, `<p id="${esc(id)}" class="notice bad">${esc(why)}</p><p>${esc(next)}</p>`);
