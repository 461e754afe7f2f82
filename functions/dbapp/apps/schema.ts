/**
 * App schemas (fields, options, units) read once a minute per key through the Store, as the
 * catalog and the org URL are: a validated write, a batch or a list would otherwise read the
 * app from Tape every time. A schema can be up to a minute old, so a write it refuses is planned
 * once more against a fresh read before the refusal stands (a field or option added in Tape's UI
 * within the minute is then found); getApp, which a caller uses to look at an app, always reads
 * Tape and refreshes the entry.
 */
import { ToolError } from '../../../shared/core/errors';
import { scopedCache } from '../../../shared/core/store';
import type { ToolContext } from '../../../shared/core/tool';
import type { TapeClient } from '../client';
import type { TapeAppWithFields, TapeRecord } from '../wire';

type Ctx = Pick<ToolContext<TapeClient>, 'client' | 'store' | 'keyHash'>;

export const APP_SCHEMA_TTL = 60;
const entry = (appId: number) => `dbapp:app:${appId}`;

async function readSchema(ctx: Ctx, appId: number): Promise<{ app: TapeAppWithFields; fromCache: boolean }> {
  const hit = await scopedCache(ctx.store, ctx.keyHash).get<TapeAppWithFields>(entry(appId));
  if (hit) return { app: hit, fromCache: true };
  return { app: await freshAppSchema(ctx, appId), fromCache: false };
}

/** The app's schema, from the Store when read within the last minute by this key. */
export async function appSchema(ctx: Ctx, appId: number): Promise<TapeAppWithFields> {
  return (await readSchema(ctx, appId)).app;
}

/** The app's schema read from Tape now; the Store keeps it for the next calls. */
export async function freshAppSchema(ctx: Ctx, appId: number): Promise<TapeAppWithFields> {
  const app = await ctx.client.getApp(appId);
  await scopedCache(ctx.store, ctx.keyHash).put(entry(appId), app, APP_SCHEMA_TTL);
  return app;
}

/**
 * `use(app)` with the cached schema; when it refuses the input (INVALID_PARAMETER) and the schema
 * came from the Store, once more with a fresh read — the refusal stands only against Tape's app as it is.
 */
export async function withAppSchema<T>(ctx: Ctx, appId: number, use: (app: TapeAppWithFields) => T | Promise<T>): Promise<T> {
  const { app, fromCache } = await readSchema(ctx, appId);
  try {
    return await use(app);
  } catch (e) {
    if (!fromCache || !(e instanceof ToolError) || e.code !== 'INVALID_PARAMETER') throw e;
    return use(await freshAppSchema(ctx, appId));
  }
}

/** How a number field shows its values (docs/vendors/tape.md#fields-and-values settings): unit before or after, decimals. */
export interface NumberFormat {
  unit: string;
  location: 'prefix' | 'suffix';
  decimals?: number;
}
export type NumberFormats = ReadonlyMap<number, NumberFormat>;

/** The number fields of an app that have a unit, by field id. */
export function numberFormats(app: TapeAppWithFields): Map<number, NumberFormat> {
  const out = new Map<number, NumberFormat>();
  for (const f of app.fields) {
    const s = f.config?.settings ?? {};
    if (f.field_type !== 'number' || typeof s.unit !== 'string' || s.unit.trim() === '') continue;
    const decimals = typeof s.decimals === 'number' && Number.isInteger(s.decimals) && s.decimals >= 0 && s.decimals <= 20 ? s.decimals : undefined;
    out.set(f.field_id, { unit: s.unit.trim(), location: s.unit_location === 'prefix' ? 'prefix' : 'suffix', ...(decimals !== undefined ? { decimals } : {}) });
  }
  return out;
}

/**
 * The unit formats the records' number values need, from the cached schemas of their apps (or
 * `known`, already read by the caller); no schema is read when no record holds a number value.
 */
export async function formatsFor(ctx: Ctx, records: readonly TapeRecord[], known?: TapeAppWithFields): Promise<NumberFormats> {
  const apps = new Set<number>();
  for (const r of records) {
    const appId = r.app?.app_id;
    if (typeof appId === 'number' && appId !== known?.app_id && (r.fields ?? []).some((f) => f.field_type === 'number' && (f.values?.length ?? 0) > 0)) apps.add(appId);
  }
  const schemas = await Promise.all([...apps].map((id) => appSchema(ctx, id)));
  return new Map([known, ...schemas].flatMap((app) => (app ? [...numberFormats(app)] : [])));
}

/** `12,000.00 €`, `$95,000.00`: the value as the field shows it. */
export function formatNumber(value: number, f: NumberFormat): string {
  const digits = f.decimals !== undefined ? { minimumFractionDigits: f.decimals, maximumFractionDigits: f.decimals } : { maximumFractionDigits: 10 };
  const n = new Intl.NumberFormat('en-US', digits).format(value);
  return f.location === 'prefix' ? `${f.unit}${n}` : `${n} ${f.unit}`;
}
