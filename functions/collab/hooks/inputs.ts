import * as z from 'zod';
import { invalidParameter } from '../../../shared/errors';
import { checkUrl } from '../../../shared/fetch-url';
import { id } from '../../../shared/params';
import type { Ctx } from '../params';

/** Input fragments and checks of the hook tools (spec §4.8, §6). */

/** Spec §6.1/§6.2: the events of each kind of object. */
export const HOOK_EVENTS = {
  app: ['item.create', 'item.update', 'item.delete', 'comment.create', 'comment.delete', 'file.change'],
  space: ['app.create', 'app.update', 'app.delete', 'member_add', 'member_remove'],
} as const;

export const hookRefTypeInput = z.enum(['app', 'space']).describe('What the hook watches: an app (item, comment and file events) or a space (app and member events).');
export const hookRefIdInput = id('Numeric id of that app or space.');
export const hookIdInput = id('Numeric hook_id (createHook returns it; getHooks lists them).');

export const hookTypeInput = z
  .enum([...HOOK_EVENTS.app, ...HOOK_EVENTS.space])
  .describe(`The event: on an app ${HOOK_EVENTS.app.join(', ')}; on a space ${HOOK_EVENTS.space.join(', ')}.`);

/** The event must belong to the kind of object (an item event on a space is refused before Podio is asked). */
export function checkHookType(refType: 'app' | 'space', type: string): void {
  if (!(HOOK_EVENTS[refType] as readonly string[]).includes(type)) {
    const other = refType === 'app' ? 'space' : 'app';
    throw invalidParameter('type', `one of ${HOOK_EVENTS[refType].join(', ')}`, `Parameter "type": "${type}" is an event of a ${other}, not of a ${refType}. Events of a ${refType}: ${HOOK_EVENTS[refType].join(', ')}.`);
  }
}

/** Podio posts to public http(s) endpoints on ports 80 and 443 (podio.md §10); hosts listed in ALLOW_HTTP_HOSTS are exempt locally. */
export function checkHookUrl(raw: string, ctx: Pick<Ctx, 'config'>): void {
  const url = checkUrl(raw, { parameter: 'url', allowHttpHosts: ctx.config.allowHttpHosts });
  const local = ctx.config.allowHttpHosts.includes(url.hostname.toLowerCase());
  if (!local && url.port !== '' && url.port !== '80' && url.port !== '443') {
    throw invalidParameter('url', 'an https URL on port 443 (or 80)', `Parameter "url": Podio delivers hooks to ports 80 and 443 only, got port ${url.port}.`);
  }
}
