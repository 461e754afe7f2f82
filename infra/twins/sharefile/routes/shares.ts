import type { Clock } from '../../kit';
import { badRequest, bool, entity, feed, flag, jsonBody, notFound, str, type Json, type Route, type SfContext } from '../http';
import { itemWith, renderShare } from '../model';
import { fullName, nextId, type SfShare, type SfState } from '../state';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DAY = 86_400_000;

/** Shares (docs/vendors/sharefile.md#shares): Send shares of items, Request shares into a folder; each has a public Uri on the twin. */
export function shareRoutes(state: SfState, clock: Clock): Route[] {
  const mine = (c: SfContext, id: string): SfShare => {
    const s = state.shares.get(id);
    const u = c.get('user');
    if (!s || (s.creatorId !== u.id && !u.admin)) throw notFound(`Share ${id} not found.`);
    return s;
  };
  const expandOf = (c: SfContext) => (c.req.query('$expand') ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const date = (body: Json, name: string): number | undefined => {
    const v = str(body, name);
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) throw badRequest(`${name} must be an ISO 8601 date.`);
    return ms;
  };
  const maxDownloads = (body: Json): number | undefined => {
    const v = body.MaxDownloads;
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || (v < 1 && v !== -1)) throw badRequest('MaxDownloads must be -1 (unlimited) or a positive integer.');
    return v;
  };
  const recipientEmails = (list: unknown): string[] => {
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) throw badRequest('Recipients must be an array.');
    return list.map((r) => {
      if (typeof r === 'string') return r;
      const user = ((r ?? {}) as Json).User as Json | undefined;
      const email = typeof user?.Email === 'string' ? user.Email : typeof user?.Id === 'string' ? state.users.get(user.Id)?.email : undefined;
      if (!email) throw badRequest('Each recipient needs User.Email or the Id of a known user.');
      return email;
    }).map((e) => {
      if (!EMAIL.test(e)) throw badRequest(`"${e}" is not a valid email address.`);
      return e;
    });
  };
  const send = (c: SfContext, s: SfShare, emails: string[], message: string, ccSender: boolean) => {
    const by = c.get('user');
    for (const email of emails) {
      let r = s.recipients.find((x) => x.email.toLowerCase() === email.toLowerCase());
      if (!r) s.recipients.push((r = { aliasId: nextId(state, 'alias'), email, downloads: 0 }));
      const what = s.type === 'Send' ? `${fullName(by)} sent you files: ${s.title}` : `${fullName(by)} requests files: ${s.title}`;
      state.outbox.push({ to: email, ...(ccSender ? { cc: by.email } : {}), subject: what, body: `${message}\n${c.get('links')}/share/view/${r.aliasId}`.trim(), at: clock.now() });
    }
    if (emails.length) s.sentMessage = true;
  };

  const create = async (c: SfContext): Promise<Response> => {
    const u = c.get('user');
    const body = await jsonBody(c);
    const type = str(body, 'ShareType');
    if (type !== 'Send' && type !== 'Request') throw badRequest('ShareType must be Send or Request.');
    const now = clock.now();
    const s: SfShare = {
      id: nextId(state, 'share'), aliasId: nextId(state, 'alias'), type, title: str(body, 'Title') ?? '', creatorId: u.id, itemIds: [], parentId: null, created: now,
      expiration: date(body, 'ExpirationDate') ?? now + state.account.shareExpirationDays * DAY, maxDownloads: maxDownloads(body) ?? -1, totalDownloads: 0,
      requireLogin: bool(body, 'RequireLogin') ?? false, requireUserInfo: bool(body, 'RequireUserInfo') ?? false, isViewOnly: type === 'Send' && (bool(body, 'IsViewOnly') ?? false),
      notifyOnDownload: bool(body, 'NotifyOnDownload') ?? false, notifyOnUpload: bool(body, 'NotifyOnUpload') ?? false, sentMessage: false, recipients: [],
    };
    if (type === 'Send') {
      const items = Array.isArray(body.Items) ? body.Items : [];
      if (!items.length) throw badRequest('A Send share needs Items.');
      s.itemIds = items.map((i) => itemWith(state, u, String(((i ?? {}) as Json).Id ?? ''), 'download').id);
    } else {
      const parent = (body.Parent ?? {}) as Json;
      if (typeof parent.Id !== 'string') throw badRequest('A Request share needs Parent.Id, the folder uploads go to.');
      const folder = itemWith(state, u, parent.Id, 'upload');
      if (folder.kind !== 'folder') throw badRequest('The Parent of a Request share must be a folder.');
      s.parentId = folder.id;
    }
    if (s.title === '') s.title = type === 'Send' ? `Files from ${fullName(u)}` : `Upload request from ${fullName(u)}`;
    const emails = recipientEmails(body.Recipients);
    state.shares.set(s.id, s);
    if (flag(c, 'notify', false)) send(c, s, emails, '', false);
    else for (const email of emails) s.recipients.push({ aliasId: nextId(state, 'alias'), email, downloads: 0 });
    return entity(c, 'Shares', renderShare(c, state, u, s, ['Items', 'Recipients']));
  };

  const update = async (c: SfContext, id: string): Promise<Response> => {
    const s = mine(c, id);
    const body = await jsonBody(c);
    const title = str(body, 'Title');
    if (title !== undefined) s.title = title;
    s.expiration = date(body, 'ExpirationDate') ?? s.expiration;
    s.maxDownloads = maxDownloads(body) ?? s.maxDownloads;
    s.requireLogin = bool(body, 'RequireLogin') ?? s.requireLogin;
    s.requireUserInfo = bool(body, 'RequireUserInfo') ?? s.requireUserInfo;
    const viewOnly = bool(body, 'IsViewOnly');
    if (viewOnly !== undefined) {
      if (s.type === 'Request') throw badRequest('IsViewOnly applies to Send shares only.');
      s.isViewOnly = viewOnly;
    }
    return entity(c, 'Shares', renderShare(c, state, c.get('user'), s, expandOf(c)));
  };

  const resend = async (c: SfContext): Promise<Response> => {
    const body = await jsonBody(c);
    const s = mine(c, String(body.ShareId ?? ''));
    const emails = recipientEmails(body.Recipients);
    if (!emails.length) throw badRequest('Recipients must list at least one email address.');
    if (s.expiration <= clock.now()) throw badRequest('The share has expired: extend ExpirationDate before notifying.');
    send(c, s, emails, str(body, 'Body') ?? '', bool(body, 'CcSender') ?? false);
    return entity(c, 'Shares', renderShare(c, state, c.get('user'), s, ['Recipients']));
  };

  return [
    {
      method: 'GET',
      pattern: 'Shares',
      handler: (c) => {
        const u = c.get('user');
        const expired = flag(c, 'includeExpired', true);
        const list = [...state.shares.values()].filter((s) => (s.creatorId === u.id || u.admin) && (expired || s.expiration > clock.now())).sort((a, b) => b.created - a.created);
        return feed(c, 'Shares', list.map((s) => renderShare(c, state, u, s, expandOf(c))));
      },
    },
    { method: 'GET', pattern: 'Shares(*)', handler: (c, [k]) => entity(c, 'Shares', renderShare(c, state, c.get('user'), mine(c, k!), expandOf(c))) },
    { method: 'POST', pattern: 'Shares', handler: create },
    { method: 'PATCH', pattern: 'Shares(*)', handler: (c, [k]) => update(c, k!) },
    {
      method: 'DELETE',
      pattern: 'Shares(*)',
      handler: (c, [k]) => {
        state.shares.delete(mine(c, k!).id);
        return c.body(null, 204);
      },
    },
    { method: 'POST', pattern: 'Shares/Resend', handler: resend },
  ];
}

