import type { Clock } from '../../kit';
import { badRequest, bool, conflict, entity, feed, flag, jsonBody, notFound, str, type Json, type Route, type SfContext } from '../http';
import { itemWith, renderAcl } from '../model';
import { fullName, type SfAcl, type SfItem, type SfState } from '../state';

const FLAGS = [
  ['CanView', 'canView'],
  ['CanDownload', 'canDownload'],
  ['CanUpload', 'canUpload'],
  ['CanDelete', 'canDelete'],
  ['CanManagePermissions', 'canManagePermissions'],
  ['NotifyOnUpload', 'notifyOnUpload'],
  ['NotifyOnDownload', 'notifyOnDownload'],
] as const;

/** Access controls of items (docs/vendors/sharefile.md#access-controls): read with view rights, written with CanManagePermissions. */
export function accessRoutes(state: SfState, clock: Clock): Route[] {
  /** The principal of a body: `{Id}`, `{Email}` or `{url}` of a user or group. */
  const principalOf = (body: Json): string => {
    const p = (body.Principal ?? {}) as Json;
    const url = typeof p.url === 'string' ? /\(([^)]+)\)\s*$/.exec(p.url)?.[1] : undefined;
    const email = typeof p.Email === 'string' ? [...state.users.values()].find((u) => u.email.toLowerCase() === (p.Email as string).toLowerCase())?.id : undefined;
    const id = typeof p.Id === 'string' ? p.Id : (url ?? email);
    if (!id) throw badRequest('Principal must carry an Id, an Email or a url.');
    if (!state.users.has(id) && !state.groups.has(id)) throw notFound(`Principal ${id} is neither a user nor a group of this account.`);
    return id;
  };
  const writable = (c: SfContext, key: string): SfItem => itemWith(state, c.get('user'), key, 'manage');
  const apply = (entry: SfAcl, body: Json, item: SfItem) => {
    for (const [wire, field] of FLAGS) {
      const v = bool(body, wire);
      if (v !== undefined) entry[field] = v;
    }
    if (item.kind === 'file' && (entry.canUpload || entry.notifyOnUpload)) throw badRequest('CanUpload and NotifyOnUpload apply to folders only.');
  };
  const mail = (c: SfContext, principalId: string, item: SfItem, message?: string) => {
    const by = fullName(c.get('user'));
    const to = state.users.get(principalId) ? [state.users.get(principalId)!] : (state.groups.get(principalId)?.memberIds ?? []).map((id) => state.users.get(id)!).filter(Boolean);
    for (const u of to) state.outbox.push({ to: u.email, subject: `${by} shared "${item.name}" with you`, body: message ?? '', at: clock.now() });
  };

  const list = (c: SfContext, key: string): Response => {
    const item = itemWith(state, c.get('user'), key, 'view');
    const entries: (SfAcl & { isOwner?: boolean })[] = [...(state.acls.get(item.id)?.values() ?? [])];
    // The creator shows as owner, as ShareFile lists the owner among an item's access controls.
    if (!entries.some((e) => e.principalId === item.creatorId)) {
      entries.unshift({ itemId: item.id, principalId: item.creatorId, canView: true, canDownload: true, canUpload: item.kind === 'folder', canDelete: true, canManagePermissions: true, notifyOnUpload: false, notifyOnDownload: false, isOwner: true });
    }
    return feed(c, 'AccessControls', entries.map((e) => renderAcl(c, state, e)));
  };

  const create = async (c: SfContext, key: string): Promise<Response> => {
    const item = writable(c, key);
    const body = await jsonBody(c);
    const principalId = principalOf(body);
    if (state.acls.get(item.id)?.has(principalId)) throw conflict(`Principal ${principalId} already has an access control on this item: update it instead.`);
    const entry: SfAcl = { itemId: item.id, principalId, canView: true, canDownload: true, canUpload: false, canDelete: false, canManagePermissions: false, notifyOnUpload: false, notifyOnDownload: false };
    apply(entry, body, item);
    if (!state.acls.has(item.id)) state.acls.set(item.id, new Map());
    state.acls.get(item.id)!.set(principalId, entry);
    if (flag(c, 'sendDefaultNotification', false)) mail(c, principalId, item, str(body, 'Message'));
    return entity(c, 'AccessControls', renderAcl(c, state, entry), 200);
  };

  const update = async (c: SfContext, key: string): Promise<Response> => {
    const item = writable(c, key);
    const body = await jsonBody(c);
    const principalId = principalOf(body);
    const entry = state.acls.get(item.id)?.get(principalId);
    if (!entry) throw notFound(`Principal ${principalId} has no access control on this item.`);
    const before = { ...entry };
    try {
      apply(entry, body, item);
    } catch (err) {
      Object.assign(entry, before);
      throw err;
    }
    return entity(c, 'AccessControls', renderAcl(c, state, entry));
  };

  const parseKey = (key: string): { principalId: string; itemId: string } => {
    const m = /^principalid=([^,]+),itemid=(.+)$/i.exec(key);
    if (!m) throw badRequest('An AccessControl key is principalid=<id>,itemid=<id>.');
    return { principalId: m[1]!.replace(/^'(.*)'$/, '$1'), itemId: m[2]!.replace(/^'(.*)'$/, '$1') };
  };

  return [
    { method: 'GET', pattern: 'Items(*)/AccessControls', handler: (c, [k]) => list(c, k!) },
    { method: 'POST', pattern: 'Items(*)/AccessControls', handler: (c, [k]) => create(c, k!) },
    { method: 'PATCH', pattern: 'Items(*)/AccessControls', handler: (c, [k]) => update(c, k!) },
    {
      method: 'GET',
      pattern: 'AccessControls(*)',
      handler: (c, [k]) => {
        const { principalId, itemId } = parseKey(k!);
        const item = itemWith(state, c.get('user'), itemId, 'view');
        const entry = state.acls.get(item.id)?.get(principalId);
        if (!entry) throw notFound('Access control not found.');
        return entity(c, 'AccessControls', renderAcl(c, state, entry));
      },
    },
    {
      method: 'DELETE',
      pattern: 'AccessControls(*)',
      handler: (c, [k]) => {
        const { principalId, itemId } = parseKey(k!);
        const item = writable(c, itemId);
        if (!state.acls.get(item.id)?.delete(principalId)) throw notFound(`Principal ${principalId} has no access control on this item.`);
        return c.body(null, 204);
      },
    },
  ];
}
