import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../shared/core/errors';
import { finishItemFields, needsFinish, planItemFieldValue, planItemFields, type FieldPort, type ItemFieldPlan, type OrgMember } from '../fields';
import { appOrgMembers } from '../apps/lookups';
import { fileIdsInput, type Ctx } from '../params';
import { resolveFileIds, uploadUrls } from '../files/uploads';
import type { PodioApp, PodioItemWrite, PodioWriteFlags } from '../wire';

/**
 * Item writes shared by createItem/updateItem and their batches: the inputs, the check against the
 * app in two steps — plan (no network: shapes, options, currencies, required fields) then finish
 * (contacts against the org members, embed URLs through POST /embed/, image and file URLs downloaded
 * and uploaded) — and the write itself. Nothing is written until both steps hold for the input.
 */

// --- inputs -------------------------------------------------------------------------------------

export const fieldsInput = z
  .record(z.string(), z.unknown())
  .describe(
    'Field values keyed by numeric field_id (an external_id works too; getApp lists both) — raw values, never the {"value": …} wrapper of reads. ' +
      'text: string; number: number; category: option id, option text, or an array of them; date: {"start": "YYYY-MM-DD HH:MM:SS", "end"?: …} ' +
      '(the time is required, 00:00:00 for a day; a bare date string is refused); money: {"value": "12.50", "currency": "EUR"} in one of the ' +
      "app's allowed currencies; app (relation): item id or array of item ids; contact: profile id(s) — never a user id — or {\"user_id\": …} / " +
      '{"email": …} resolved to the profile for you; phone, email: [{"type": "work|mobile|home|main|other", "value": "…"}]; embed: a URL (turned ' +
      'into an embed for you); image: file id(s) or https URL(s) (downloaded and uploaded for you); location: an address string; progress: 0-100; ' +
      'duration: seconds.',
  );

export const tagsInput = z.array(z.string().min(1).max(200)).max(100).describe('Tags of the item (plain words, e.g. ["urgent", "q3"]).');

export const externalIdInput = z.string().min(1).max(500).describe('Your own id for the item (e.g. the id of the record in another system).');

/** `id_only` (default true): the short answer; false adds what the write tool can tell without another call. */
export const idOnlyInput = (description: string) => z.boolean().default(true).describe(description);

export const fieldIdInput = z
  .union([z.number().int().positive(), z.string().min(1)])
  .describe('Single-field mode: the field to set, by field_id (or external_id); use with field_value, instead of fields.');

export const fieldValueInput = z.unknown().describe('Single-field mode: the new value of field_id, in the input shape of its type (see fields); null or [] clears it.');

/** What one item create takes besides its app (createItem, and each entry of batchCreateItems). */
export const createShape = {
  fields: fieldsInput,
  external_id: externalIdInput.optional(),
  file_ids: fileIdsInput,
  tags: tagsInput.optional(),
};

/** What one item update takes besides its item_id (updateItem, and each entry of batchUpdateItems). */
export const updateShape = {
  fields: fieldsInput.optional(),
  field_id: fieldIdInput.optional(),
  field_value: fieldValueInput.optional(),
  external_id: externalIdInput.optional(),
  file_ids: fileIdsInput,
  tags: tagsInput.optional().describe('Replaces every tag of the item with this list ([] removes them all).'),
  revision: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Write only if the item is still at this revision (from an earlier update or getItemRevisions); otherwise refused (Podio: conflict), nothing written.'),
};

/** What one item create takes (createItem, and each entry of batchCreateItems). */
export interface CreateInput {
  fields: Record<string, unknown>;
  external_id?: string;
  file_ids?: (number | string)[];
  tags?: string[];
}

/** What one item update takes besides its item_id (updateItem, and each entry of batchUpdateItems). */
export interface UpdateInput {
  fields?: Record<string, unknown>;
  field_id?: number | string;
  field_value?: unknown;
  external_id?: string;
  file_ids?: (number | string)[];
  tags?: string[];
  revision?: number;
}

// --- the network port of the field engine -------------------------------------------------------

/**
 * The FieldPort of one app's writes, bound to the caller's client and caches. Each member list,
 * embed and upload is asked once per call (a batch repeating a URL makes one embed, one upload);
 * a refusal of a shared URL names each value that gave it.
 */
export function fieldPort(ctx: Ctx, app: PodioApp): FieldPort {
  let members: Promise<readonly OrgMember[]> | undefined;
  const embeds = new Map<string, Promise<number>>();
  const uploads = new Map<string, Promise<number>>();
  const contexts = new Map<number, ReturnType<FieldPort['attachedTo']>>();
  const once = async (memo: Map<string, Promise<number>>, key: string, path: string, load: () => Promise<number>) => {
    let p = memo.get(key);
    if (!p) memo.set(key, (p = load()));
    return p.catch((err: unknown) => {
      throw rerooted(err, path);
    });
  };
  return {
    members: () => (members ??= appOrgMembers(ctx, app)),
    embed: (url, path) => once(embeds, url, path, () => embedId(ctx, url, path)),
    upload: (url, path) => once(uploads, url, path, async () => (await uploadUrls([{ url, parameter: path }], ctx))[0]!),
    attachedTo: (fileId) => {
      let p = contexts.get(fileId);
      if (!p) {
        p = ctx.client.getFile(fileId).then(
          (f) => f.context ?? null,
          (err: unknown) => {
            // A file the key cannot read is Podio's to judge at the write.
            if (err instanceof ToolError && (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN')) return null;
            throw err;
          },
        );
        contexts.set(fileId, p);
      }
      return p;
    },
  };
}

/** A link → Podio's embed id; a link Podio refuses is the caller's parameter at `path`. */
async function embedId(ctx: Ctx, url: string, path: string): Promise<number> {
  try {
    return (await ctx.client.createEmbed(url)).embed_id;
  } catch (err) {
    if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
      throw invalidParameter(path, 'a link Podio can embed (a reachable http or https page)', `Parameter "${path}": Podio could not make an embed of ${url} (${err.message}).`, err.details);
    }
    throw err;
  }
}

/** An INVALID_PARAMETER moved to another parameter path (`field_value` → `items.3.field_value`); other errors as they are. */
function rerooted(err: unknown, path: string): unknown {
  if (!(err instanceof ToolError) || err.code !== 'INVALID_PARAMETER' || typeof err.details.parameter !== 'string' || err.details.parameter === path) return err;
  const p = err.details.parameter;
  return new ToolError(err.code, err.message.split(`"${p}"`).join(`"${path}"`), { ...err.details, parameter: path });
}

// --- create -------------------------------------------------------------------------------------

/** A create checked against the app without any call; `at` prefixes parameter names (`items.3.`). */
export interface PlannedCreate {
  input: CreateInput;
  plan: ItemFieldPlan;
  at: string;
}

export const planCreate = (app: PodioApp, input: CreateInput, at = ''): PlannedCreate => ({ input, plan: planItemFields(app, input.fields, 'create', `${at}fields`), at });

/** Finishes a planned create (contacts, embeds, uploads, file URLs) into Podio's body. */
export async function createBody(ctx: Ctx, port: FieldPort, { input, plan, at }: PlannedCreate): Promise<PodioItemWrite> {
  const fields = needsFinish(plan) ? await finishItemFields(plan, port) : plan.body;
  const fileIds = await resolveFileIds(input.file_ids, ctx, `${at}file_ids`);
  return {
    fields,
    ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
    ...(fileIds?.length ? { file_ids: fileIds } : {}),
    ...(input.tags?.length ? { tags: input.tags } : {}),
  };
}

/** What a create answers: Podio's item_id and link, and with id_only false its title and app_item_id. */
export interface CreatedItem {
  item_id: number;
  link: string | null;
  title?: string;
  app_item_id?: number;
}

export async function sendCreate(ctx: Ctx, appId: number, body: PodioItemWrite, flags: PodioWriteFlags, idOnly = true, at = ''): Promise<CreatedItem> {
  // Podio's answer carries more than the client's type names (the twin and Podio send app_item_id).
  const r: { item_id: number; title?: string; link?: string; app_item_id?: number } = await ctx.client.createItem(appId, body, flags).catch((err: unknown) => {
    throw attachRefusal(err, body, at);
  });
  return {
    item_id: r.item_id,
    link: r.link || null,
    ...(!idOnly && r.title !== undefined ? { title: r.title } : {}),
    ...(!idOnly && typeof r.app_item_id === 'number' ? { app_item_id: r.app_item_id } : {}),
  };
}

// --- update -------------------------------------------------------------------------------------

/** Re-roots an INVALID_PARAMETER of a single value (`field_id`, `field_value`) under a batch entry. */
function under<T>(at: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!at || !(err instanceof ToolError) || typeof err.details.parameter !== 'string') throw err;
    throw rerooted(err, `${at}${err.details.parameter}`);
  }
}

/**
 * Exactly one mode: `fields`, or `field_id` with `field_value`. An update of tags, file_ids or
 * external_id alone needs neither. Checked on the input alone, before any call.
 */
export function checkUpdateMode(input: UpdateInput, at = ''): void {
  const single = input.field_id !== undefined || input.field_value !== undefined;
  if (input.fields !== undefined && single) {
    throw invalidParameter(`${at}fields`, 'either fields, or field_id with field_value', `Parameter "${at}fields": give either fields (several values) or field_id + field_value (one value), not both.`);
  }
  if (single && input.field_id === undefined) {
    throw invalidParameter(`${at}field_id`, 'the field_id (or external_id) that field_value is for', `Parameter "${at}field_id" is required with field_value: name the field to set (getApp lists the field ids).`);
  }
  if (single && input.field_value === undefined) {
    throw invalidParameter(`${at}field_value`, 'the new value of field_id (null clears it)', `Parameter "${at}field_value" is required with field_id: give the new value (null clears the field).`);
  }
  if (input.fields === undefined && !single && input.tags === undefined && input.file_ids === undefined && input.external_id === undefined) {
    throw invalidParameter(
      `${at}fields`,
      'fields, or field_id with field_value',
      `Parameter "${at}fields" is required: nothing to update. Give fields ({"<field_id>": value, …}) or field_id + field_value (or only tags, file_ids or external_id).`,
    );
  }
}

/** An update checked against the item's app without any call. */
export interface PlannedUpdate {
  input: UpdateInput;
  /** null: tags/file_ids/external_id only. */
  plan: ItemFieldPlan | null;
  /** Single-field mode: the field's id (the value is plan.body[fieldId]). */
  fieldId?: number;
  at: string;
}

export function planUpdate(app: PodioApp, input: UpdateInput, at = ''): PlannedUpdate {
  checkUpdateMode(input, at);
  if (input.fields !== undefined) return { input, plan: planItemFields(app, input.fields, 'update', `${at}fields`), at };
  if (input.field_id === undefined) return { input, plan: null, at };
  const { fieldId, plan } = under(at, () => planItemFieldValue(app, input.field_id!, input.field_value));
  return { input, plan, fieldId, at };
}

/** Podio's request for a planned update: one field's value alone (PUT /item/{id}/value/{field}), or the item (PUT /item/{id}). */
export type UpdateRequest = { fieldId: number; value: unknown } | { body: PodioItemWrite };

export async function updateRequest(ctx: Ctx, port: FieldPort, { input, plan, fieldId, at }: PlannedUpdate, itemId: number): Promise<UpdateRequest> {
  const fields = plan ? (needsFinish(plan) ? await finishItemFields(plan, port, itemId) : plan.body) : undefined;
  const fileIds = await resolveFileIds(input.file_ids, ctx, `${at}file_ids`);
  const alone = input.tags === undefined && fileIds === undefined && input.external_id === undefined && input.revision === undefined;
  // The value endpoint takes the value alone; anything else about the item needs the item endpoint.
  if (fieldId !== undefined && alone) return { fieldId, value: fields![fieldId] };
  return {
    body: {
      ...(fields ? { fields } : {}),
      ...(input.external_id !== undefined ? { external_id: input.external_id } : {}),
      ...(fileIds ? { file_ids: fileIds } : {}),
      // Podio replaces the tags with the list sent: [] removes them all.
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
      ...(input.revision !== undefined ? { revision: input.revision } : {}),
    },
  };
}

/** Writes the update; Podio's 409 (the item moved past `revision`) becomes a plain instruction. */
export async function sendUpdate(ctx: Ctx, itemId: number, req: UpdateRequest, flags: PodioWriteFlags, at = ''): Promise<{ revision: number; title: string }> {
  try {
    if ('fieldId' in req) return await ctx.client.updateItemValue(itemId, req.fieldId, req.value, flags);
    return await ctx.client.updateItem(itemId, req.body, flags);
  } catch (err) {
    if (err instanceof ToolError && err.details.upstream_status === 409) {
      const rev = 'body' in req ? req.body.revision : undefined;
      throw new ToolError(
        'INVALID_PARAMETER',
        `Item #${itemId} was changed by someone else${rev !== undefined ? ` after revision ${rev}` : ''} (Podio: revision conflict); nothing was written. Read it again (getItem or getItemRevisions) and resend the update${rev !== undefined ? ' with its current revision' : ''}.`,
        { ...err.details, parameter: `${at}revision`, expected: 'the current revision of the item' },
      );
    }
    throw attachRefusal(err, 'body' in req ? req.body : {}, at);
  }
}

/**
 * Podio refuses a file_ids entry that is attached elsewhere (400 file.already_attached) without
 * saying which: the caller learns the parameter and what to do instead.
 */
function attachRefusal(err: unknown, body: PodioItemWrite, at: string): unknown {
  if (!(err instanceof ToolError) || err.details.upstream_code !== 'file.already_attached' || !body.file_ids?.length) return err;
  return invalidParameter(
    `${at}file_ids`,
    'ids of new, unattached files, or https URLs',
    `Parameter "${at}file_ids": one of ${body.file_ids.join(', ')} is already attached to another object (Podio: file.already_attached); a file lives on one object only. ` +
      'copyFile makes an unattached copy to give here instead; nothing was written.',
    err.details,
  );
}

// --- flags and text -----------------------------------------------------------------------------

/** ` "Title"` when known. */
export const quotedTitle = (title: string | undefined): string => (title ? ` "${title}"` : '');
