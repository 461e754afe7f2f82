import * as z from 'zod';
import { invalidParameter } from '../../../shared/core/errors';
import { id } from '../../../shared/core/params';

/** Input fragments and checks of the hook tools (docs/spec.md#collab-hook). */

/** docs/spec.md#collab-hook: the events of each kind of object. */
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
