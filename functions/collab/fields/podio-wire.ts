/**
 * The Podio wire shapes the field table reads (podio.md §2, §12). Kept here until the platform's
 * wire.ts (beside client.ts) exports them; then these become re-exports of it.
 */

/** An app field as `GET /app/{app_id}` returns it. */
export interface PodioAppField {
  field_id: number;
  external_id: string;
  type: string;
  label: string;
  /** `active` or `deleted`; deleted fields take no values. */
  status?: string;
  config: {
    label: string;
    description?: string | null;
    delta?: number;
    required?: boolean;
    settings?: Record<string, unknown> | null;
  };
}

/** An app with its fields (`GET /app/{app_id}`). */
export interface PodioApp {
  app_id: number;
  status?: string;
  space_id?: number;
  config: { name: string; item_name?: string; description?: string | null; [key: string]: unknown };
  fields: PodioAppField[];
}

/** One entry of an item field's `values`: an object keyed by sub_id (`value`, `start`, `embed`, …). */
export type PodioFieldValue = Record<string, unknown>;

/** An item field on output (`GET /item/{item_id}`, filter results). */
export interface PodioItemField {
  field_id: number;
  type: string;
  external_id: string;
  label: string;
  config?: Record<string, unknown>;
  values: PodioFieldValue[];
}
