import { SANDBOX_KEYS } from '../kit';
import { textImage, tinyDocx, tinyPdf, tinyPng, tinyPptx, tinyXlsx } from '../kit/documents';
import { md5 } from './files';
import { emptyState, sfId, type SfAcl, type SfItem, type SfState, type SfUser } from './state';

/**
 * The seed: Acme Legal's ShareFile account. Olivia Bennett (admin employee, the sandbox owner key)
 * and two employees; two clients, one of them Daniel Ortiz (the sandbox member key), who sees only
 * the shared folder of his project through an access control. A folder tree with small real files
 * (PDF, DOCX, XLSX, PPTX, PNG, one of text), a file with two versions, a recycled file, groups and
 * shares. Dates are written for SHAREFILE_DEMO.today and move with the day the twin starts
 * (kit/seed-day.ts), so the newest files are days old.
 */

/** Seed ids, for tests and docs. */
export const SHAREFILE_DEMO = {
  users: {
    olivia: sfId('user', 1),
    marcus: sfId('user', 2),
    priya: sfId('user', 3),
    daniel: sfId('user', 4),
    sofia: sfId('user', 5),
  },
  folders: {
    oliviaHome: sfId('folder', 11),
    oliviaBox: sfId('folder', 12),
    marcusHome: sfId('folder', 13),
    marcusBox: sfId('folder', 14),
    priyaHome: sfId('folder', 15),
    priyaBox: sfId('folder', 16),
    contracts: sfId('folder', 21),
    photos: sfId('folder', 22),
    clientProjects: sfId('folder', 31),
    ortiz: sfId('folder', 32),
    marketing: sfId('folder', 33),
  },
  files: {
    offerV1: sfId('file', 41),
    offer: sfId('file', 42),
    nda: sfId('file', 43),
    sitePlan: sfId('file', 44),
    oldDraft: sfId('file', 45),
    proposal: sfId('file', 51),
    floorPlan: sfId('file', 52),
    scope: sfId('file', 53),
    brochure: sfId('file', 61),
    pricing: sfId('file', 62),
    pitch: sfId('file', 63),
  },
  groups: { partners: sfId('group', 71), ortizTeam: sfId('group', 72) },
  shares: { proposalSend: sfId('share', 81), ortizRequest: sfId('share', 82), expired: sfId('share', 83) },
  /** The reference day (kit/seed-day.ts): a twin started on it holds the dates as written (the newest file of 2026-03-07). */
  today: Date.UTC(2026, 2, 10),
  /** Ids above this are handed out by the twin. */
  firstFreeSeq: 1000,
} as const;

const D = SHAREFILE_DEMO;

type SeedFile = { content: Buffer; text: string };
let files: Record<keyof typeof SHAREFILE_DEMO.files, SeedFile> | undefined;
/** The seeded files' bytes, built once per process (never written into). */
function seedFiles() {
  const pdf = (lines: string[]) => ({ content: tinyPdf(lines), text: lines.join(' ') });
  const docx = (lines: string[]) => ({ content: tinyDocx(lines), text: lines.join(' ') });
  return (files ??= {
    offerV1: pdf(['Offer letter - draft', 'Salary to be confirmed.']),
    offer: pdf(['Offer letter', 'Position: Paralegal', 'Start date: 2026-04-01', 'Salary: 58,000 EUR']),
    nda: docx(['Mutual Non-Disclosure Agreement', 'The parties agree to keep confidential information secret for five years.']),
    sitePlan: { content: tinyPng(16, [40, 120, 200]), text: '' },
    oldDraft: pdf(['Old draft of the retainer agreement']),
    proposal: pdf(['Renovation proposal for Ortiz Builders', 'Kitchen and two bathrooms', 'Estimated budget: 42,500 USD']),
    floorPlan: { content: textImage(['Floor plan: ground floor', 'Kitchen 14 m2, living 32 m2']), text: '' },
    scope: docx(['Scope of work', 'Demolition, plumbing, electrical and finishing works.', 'Permit filing by Acme Legal.']),
    brochure: pdf(['Acme Legal brochure', 'Estate planning, real estate and employment law.']),
    pricing: { content: tinyXlsx('Fees 2026', [['Service', 'Hourly rate (EUR)'], ['Estate planning', 220], ['Real estate', 260], ['Employment law', 240]]), text: 'Service Hourly rate (EUR) Estate planning 220 Real estate 260 Employment law 240' },
    pitch: { content: tinyPptx([{ title: 'Acme Legal', lines: ['Estate planning, real estate and employment law'] }, { title: 'Why us', lines: ['Three partners, thirty years of practice'] }]), text: 'Acme Legal Why us' },
  });
}

/** A fresh state of the demo account, its dates moved by `shift` ms (kit/seed-day.ts). */
export function seedDemoState(shift = 0): SfState {
  const at = (iso: string) => Date.parse(iso) + shift;
  const s = emptyState();
  s.seq = D.firstFreeSeq;
  const user = (id: string, first: string, last: string, email: string, o: Partial<SfUser>): SfUser => {
    const u: SfUser = {
      id, email, firstName: first, lastName: last, company: 'Acme Legal', employee: true, admin: false, confirmed: true, disabled: false,
      created: at('2024-01-15T09:00:00Z'), canCreateFolders: true, canManageUsers: false, referredBy: null, ...o,
    };
    s.users.set(id, u);
    return u;
  };
  user(D.users.olivia, 'Olivia', 'Bennett', 'olivia.bennett@acmelegal.example', { admin: true, canManageUsers: true, homeId: D.folders.oliviaHome, boxId: D.folders.oliviaBox });
  user(D.users.marcus, 'Marcus', 'Chen', 'marcus.chen@acmelegal.example', { homeId: D.folders.marcusHome, boxId: D.folders.marcusBox, created: at('2024-02-01T09:00:00Z') });
  user(D.users.priya, 'Priya', 'Patel', 'priya.patel@acmelegal.example', { homeId: D.folders.priyaHome, boxId: D.folders.priyaBox, created: at('2024-03-04T09:00:00Z'), canCreateFolders: false });
  user(D.users.daniel, 'Daniel', 'Ortiz', 'daniel@ortizbuilders.example', { employee: false, company: 'Ortiz Builders', canCreateFolders: false, created: at('2025-06-10T14:00:00Z'), referredBy: D.users.olivia });
  user(D.users.sofia, 'Sofia', 'Rossi', 'sofia.rossi@rossi-design.example', { employee: false, company: 'Rossi Design', confirmed: false, canCreateFolders: false, created: at('2025-09-22T10:30:00Z'), referredBy: D.users.marcus });
  s.tokens.set(SANDBOX_KEYS.owner, D.users.olivia);
  s.tokens.set(SANDBOX_KEYS.member, D.users.daniel);

  const item = (id: string, kind: SfItem['kind'], name: string, parentId: string, creatorId: string, when: string, o: Partial<SfItem> = {}) => {
    s.items.set(id, { id, kind, name, description: '', parentId, creatorId, created: at(when), edited: at(when), expiration: null, deleted: false, streamId: id.replace(/^f[io]/, 'st'), version: 1, ...o });
  };
  const file = (id: string, key: keyof ReturnType<typeof seedFiles>, name: string, parentId: string, creatorId: string, when: string, o: Partial<SfItem> = {}) => {
    const f = seedFiles()[key];
    item(id, 'file', name, parentId, creatorId, when, { content: f.content, hash: md5(f.content), text: f.text, ...o });
  };
  const home = (u: keyof typeof D.users, homeId: string, boxId: string) => {
    const person = s.users.get(D.users[u])!;
    item(homeId, 'folder', `${person.firstName} ${person.lastName}`, 'top', person.id, '2024-01-15T09:00:00Z', { homeOf: person.id });
    item(boxId, 'folder', 'File Box', 'top', person.id, '2024-01-15T09:00:00Z', { boxOf: person.id });
  };
  home('olivia', D.folders.oliviaHome, D.folders.oliviaBox);
  home('marcus', D.folders.marcusHome, D.folders.marcusBox);
  home('priya', D.folders.priyaHome, D.folders.priyaBox);

  item(D.folders.contracts, 'folder', 'Contracts', D.folders.oliviaHome, D.users.olivia, '2025-11-03T10:00:00Z', { description: 'Signed and draft contracts' });
  item(D.folders.photos, 'folder', 'Photos', D.folders.oliviaHome, D.users.olivia, '2025-12-01T08:00:00Z');
  file(D.files.offerV1, 'offerV1', 'offer.pdf', D.folders.contracts, D.users.olivia, '2026-02-20T16:00:00Z', { streamId: 'st-offer' });
  file(D.files.offer, 'offer', 'offer.pdf', D.folders.contracts, D.users.olivia, '2026-03-02T09:15:00Z', { streamId: 'st-offer', version: 2 });
  file(D.files.nda, 'nda', 'nda-template.docx', D.folders.contracts, D.users.olivia, '2026-01-12T11:00:00Z', { description: 'Standard mutual NDA' });
  file(D.files.oldDraft, 'oldDraft', 'retainer-draft-old.pdf', D.folders.contracts, D.users.olivia, '2025-12-15T09:00:00Z', { deleted: true });
  file(D.files.sitePlan, 'sitePlan', 'site-plan.png', D.folders.photos, D.users.olivia, '2026-02-02T13:00:00Z');

  item(D.folders.clientProjects, 'folder', 'Client Projects', 'allshared', D.users.olivia, '2025-05-01T09:00:00Z', { description: 'One folder per client engagement' });
  item(D.folders.ortiz, 'folder', 'Ortiz Renovation', D.folders.clientProjects, D.users.olivia, '2025-06-10T14:30:00Z');
  file(D.files.proposal, 'proposal', 'proposal.pdf', D.folders.ortiz, D.users.olivia, '2026-03-05T10:00:00Z');
  file(D.files.floorPlan, 'floorPlan', 'floor-plan.png', D.folders.ortiz, D.users.marcus, '2026-03-06T15:20:00Z');
  file(D.files.scope, 'scope', 'scope-of-work.docx', D.folders.ortiz, D.users.olivia, '2026-03-07T09:45:00Z');
  item(D.folders.marketing, 'folder', 'Marketing', 'allshared', D.users.marcus, '2025-04-01T09:00:00Z');
  file(D.files.brochure, 'brochure', 'brochure.pdf', D.folders.marketing, D.users.marcus, '2025-10-10T12:00:00Z');
  file(D.files.pricing, 'pricing', 'fees-2026.xlsx', D.folders.marketing, D.users.marcus, '2026-01-05T10:00:00Z');
  file(D.files.pitch, 'pitch', 'pitch-deck.pptx', D.folders.marketing, D.users.marcus, '2026-02-16T14:00:00Z');

  const acl = (itemId: string, principalId: string, o: Partial<SfAcl>) => {
    const entry: SfAcl = { itemId, principalId, canView: true, canDownload: true, canUpload: false, canDelete: false, canManagePermissions: false, notifyOnUpload: false, notifyOnDownload: false, ...o };
    if (!s.acls.has(itemId)) s.acls.set(itemId, new Map());
    s.acls.get(itemId)!.set(principalId, entry);
  };
  // Marcus and Priya work on client projects; Daniel sees only his project folder.
  acl(D.folders.clientProjects, D.groups.partners, { canUpload: true, canDelete: true });
  acl(D.folders.ortiz, D.users.daniel, { canUpload: true, notifyOnUpload: true });
  acl(D.folders.marketing, D.users.priya, {});

  s.groups.set(D.groups.partners, { id: D.groups.partners, name: 'Partners', shared: true, ownerId: D.users.olivia, memberIds: [D.users.marcus, D.users.priya], created: at('2024-05-01T09:00:00Z') });
  s.groups.set(D.groups.ortizTeam, { id: D.groups.ortizTeam, name: 'Ortiz Builders team', shared: false, ownerId: D.users.olivia, memberIds: [D.users.daniel], created: at('2025-06-10T15:00:00Z') });

  s.favorites.set(D.users.olivia, new Set([D.folders.ortiz, D.files.offer]));

  const share = (id: string, n: number, o: Partial<import('./state').SfShare> & Pick<import('./state').SfShare, 'type' | 'title'>) => {
    s.shares.set(id, {
      id, aliasId: sfId('alias', n), creatorId: D.users.olivia, itemIds: [], parentId: null, created: at('2026-03-05T11:00:00Z'), expiration: at('2027-03-05T11:00:00Z'),
      maxDownloads: -1, totalDownloads: 0, requireLogin: false, requireUserInfo: false, isViewOnly: false, notifyOnDownload: false, notifyOnUpload: false, sentMessage: false, recipients: [], ...o,
    });
  };
  share(D.shares.proposalSend, 81, { type: 'Send', title: 'Ortiz proposal', itemIds: [D.files.proposal, D.files.scope], maxDownloads: 10, totalDownloads: 2, sentMessage: true, recipients: [{ aliasId: sfId('alias', 91), email: 'daniel@ortizbuilders.example', downloads: 2 }] });
  share(D.shares.ortizRequest, 82, { type: 'Request', title: 'Upload permits', parentId: D.folders.ortiz, created: at('2026-03-08T09:00:00Z'), notifyOnUpload: true });
  share(D.shares.expired, 83, { type: 'Send', title: 'Old brochure', itemIds: [D.files.brochure], created: at('2025-10-10T12:30:00Z'), expiration: at('2025-11-10T12:30:00Z'), totalDownloads: 5 });
  return s;
}
