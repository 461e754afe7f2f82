import type { FieldEntry, FieldPlan } from '../../../shared/fields/engine';
import type { PodioAppField, PodioFieldValue } from '../wire';

/** The shapes of Podio's field table (./table.ts), apart so the type families in ./types/ need not import the table they fill. */

/** A contact value still to resolve against the org's members: a profile id to check, or a user/email to look up. */
export type ContactRef = number | { user_id: number } | { email: string };

/** The network work of a Podio write, done by finishItemFields (./finish.ts) before the write. */
export interface CollabExtras {
  /** Contact fields: every value is checked or resolved against the org members (user ids are not profile ids). */
  contacts: { fieldId: number; refs: { ref: ContactRef; path: string }[] }[];
  /** Embed fields: URLs turned into embed ids (POST /embed/). */
  embeds: { fieldId: number; urls: { url: string; path: string }[] }[];
  /** Image fields: file ids kept, https URLs downloaded and uploaded (POST /file/). */
  uploads: { fieldId: number; sources: { source: number | string; path: string }[] }[];
}

/** What a filter on a field gets besides the value. */
export interface FilterContext {
  field: PodioAppField;
  path: string;
  expected: string;
  fail(problem: string, at?: string): never;
}

/** A filterable type: the filter input with an example, and its check → Podio's filter value. */
export interface CollabFilter {
  expected(field: PodioAppField): string;
  input(value: unknown, cx: FilterContext): unknown;
}

/** A planned item write: Podio's `fields` body plus the network work finishItemFields does. */
export type ItemFieldPlan = FieldPlan<CollabExtras>;

export type CollabEntry = FieldEntry<PodioAppField, PodioFieldValue, CollabExtras, CollabFilter>;
