/**
 * The Tape twin's data model for apps, fields and records, in Tape's wire shapes
 * (docs/vendors/tape.md#apps, #fields-and-values, #records).
 * Route modules own their own behaviour; this file only fixes the shapes they share.
 */

/** A field as GET /v1/app/{id} returns it. `config.settings` depends on `field_type` (docs/vendors/tape.md#fields-and-values). */
export interface TapeField {
  field_id: number;
  external_id: string;
  label: string;
  /** Kind of data: text, number, category, date, app (relation), user, email, phone, link, location, file, image, checklist, calculation, status, unique_id, … */
  type: string;
  /** single_text, multi_text, number, unique_id, single_category, multi_category, status, single_relation, … (docs/vendors/tape.md#fields-and-values) */
  field_type: string;
  config: {
    label: string;
    description: string | null;
    required: boolean;
    hidden_if_empty?: boolean;
    always_hidden?: boolean;
    settings: Record<string, unknown>;
  };
}

export interface TapeApp {
  app_id: number;
  workspace_id: number;
  name: string;
  slug: string;
  external_id: string;
  item_name: string;
  type: 'database' | 'dashboard' | 'form';
  config: { item_name: string; name: string; description: string };
  icon?: Record<string, unknown>;
  item_icon?: Record<string, unknown>;
  fields: TapeField[];
}

/** One field value of a record on the wire: {value: …} (shape per docs/vendors/tape.md#fields-and-values). */
export interface TapeValue {
  value: unknown;
  [key: string]: unknown;
}

/** An automation as the author of a change (record history, comments): automation actions without author_id. */
export interface TapeAutomationActor {
  automation_id: number;
  name: string;
}

/** A stored record. `values` is keyed by field_id and holds Tape's output `values` arrays. */
export interface TapeRecordRow {
  record_id: number;
  app_id: number;
  app_record_id: number;
  title: string;
  created_on: string;
  created_by: number;
  last_modified_on: string;
  last_modified_by: number;
  /** Set when an automation made the creation / the last change: Tape credits it, not the key's user. */
  created_by_automation?: TapeAutomationActor;
  last_modified_by_automation?: TapeAutomationActor;
  deleted_on: string | null;
  /** Deleted with skip_trash: gone for good, kept only so ids are never reused. */
  purged: boolean;
  values: Map<number, TapeValue[]>;
}

/** Events a record or app change raises; webhooks (and later automations) subscribe. */
export type TapeEvent =
  | { type: 'record.create' | 'record.update' | 'record.delete' | 'record.restore'; app_id: number; record_id: number; revision_id: number; hook: boolean; workflow: boolean; user_id: number }
  | { type: 'comment.create' | 'comment.delete'; app_id: number; record_id: number; comment_id: number; hook: boolean; user_id: number }
  | { type: 'app.update'; app_id: number; hook: boolean; user_id: number };

export type TapeEventListener = (event: TapeEvent) => void;

/** A tiny synchronous event bus: listeners must not throw; slow work is theirs to schedule. */
export class TapeEvents {
  private readonly listeners = new Set<TapeEventListener>();
  on(listener: TapeEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: TapeEvent): void {
    for (const l of this.listeners) l(event);
  }
}
