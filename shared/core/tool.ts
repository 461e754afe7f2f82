import type * as z from 'zod';
import type { Config, RateLimit } from './config';
import type { Store } from './store';
import type { BlobStore } from './blob';
import type { EventsAdapter } from './event-model';
import type { PlatformAuth } from './platform-auth';
import type { KeptCredential } from './seal';

export type { KeptCredential } from './seal';

export interface Annotations {
  /** Reads only; never changes the platform. */
  readOnly: boolean;
  /** May delete or overwrite data irreversibly. */
  destructive: boolean;
  /** Calling twice with the same input has the effect of calling once. */
  idempotent: boolean;
}

/** Per-call context: everything a tool may touch besides its input. */
export interface ToolContext<C> {
  /** The platform client, bound to the caller's key. */
  client: C;
  /** sha-256 of the caller's key: scope for cache entries; the raw key never reaches the store. */
  keyHash: string;
  store: Store;
  config: Config;
  /** Epoch ms after which no new upstream work should start (Lambda's remaining time). */
  deadline: number;
  /** Files handed out by signed, expiring link (docs/architecture.md#stores); set by the runtime. */
  blob?: BlobStore;
  /** The call is a dry run (shared/core/dry-run.ts): writes are captured; caller URLs are checked, not downloaded. */
  dryRun?: boolean;
  /** DNS for checking caller URLs (shared/vendor/address-rules.ts); absent: the system resolver. Tests inject one. */
  resolve?: Resolver;
  /**
   * The caller's vendor credential, kept for work done later on its behalf (an event subscription
   * checks unsigned deliveries with it, shared/events/receiver.ts): the connection the call acts
   * through, or a vendor key sealed by the vault and bound to `bindTo`. Set by the runtime.
   */
  keepCredential?: (bindTo: string) => Promise<KeptCredential>;
}

/** Resolves a host name to every address (node:dns lookup with all: true); shared/vendor/address-rules.ts checks each. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;


export interface Tool<S extends z.ZodType = z.ZodType, R = unknown, C = unknown> {
  name: string;
  platform: string;
  description: string;
  input: S;
  annotations: Annotations;
  /**
   * The call may run as an MCP task (docs/mcp.md#tasks): a long batch or a file conversion, the
   * calls that outlast a host's timeout. tools/list says it as `execution.taskSupport`.
   */
  task?: 'optional';
  run(input: z.output<S>, ctx: ToolContext<C>): Promise<R>;
  text(result: R, input: z.output<S>): string;
  /** A realistic call and its result: documents the tool and lets the registry test render it. */
  example: { input: z.input<S>; result: R };
  /**
   * Inputs of the tool's other modes, one per distinct way of calling it (free text vs structured
   * filters): with `example.input`, the examples providers show a model (Anthropic's input_examples).
   */
  moreInputs?: readonly z.input<S>[];
}

export function defineTool<S extends z.ZodType, R, C>(tool: Tool<S, R, C>): Tool<S, R, C> {
  return tool;
}

/**
 * defineTool with the platform and its client type fixed once, e.g.
 * `export const dbappTool = platformTool<TapeClient>('dbapp')`: a platform's tools then name
 * neither, and `run` gets the platform's client typed.
 */
export function platformTool<C>(platform: string) {
  return <S extends z.ZodType, R>(tool: Omit<Tool<S, R, C>, 'platform'>): Tool<S, R, C> => defineTool<S, R, C>({ ...tool, platform });
}

export interface PlatformEnv {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Epoch ms by which the call must be done (Call.deadline): no vendor call outlives it, no retry starts that could not finish. */
  deadline?: number;
}

/**
 * A platform's tools by name, each loaded on first use: a Lambda builds the schemas of the tools
 * it runs, not of all of them (the bundle keeps each tool module behind a lazy initializer).
 * Tools are type-erased here: each was checked against its own schema where it was defined.
 */
export type ToolLoaders<C = unknown> = Readonly<Record<string, () => Promise<Tool<z.ZodType, any, C>>>>;

/** The group (folder functions/<p>/tools/<group>/) of each loader tagged by toolGroup. */
const loaderGroups = new WeakMap<object, string>();

/**
 * Tags a group's loaders with the group's name (its folder), e.g. in tools/records/index.ts
 * `export const recordTools = toolGroup<TapeClient>('records', {...})`: MCP toolsets and the
 * catalog's ?toolsets= filter by it. Returns the loaders unchanged.
 */
export function toolGroup<C>(group: string, loaders: ToolLoaders<C>): ToolLoaders<C> {
  for (const load of Object.values(loaders)) loaderGroups.set(load, group);
  return loaders;
}

/** The group a tool's loader was tagged with; undefined when its group index does not tag it. */
export function groupOf(platform: Platform<any>, tool: string): string | undefined {
  const load = Object.hasOwn(platform.tools, tool) ? platform.tools[tool] : undefined;
  return load ? loaderGroups.get(load) : undefined;
}

/** One toolset (a tool group, the folder functions/<p>/tools/<group>/) as the platform describes it. */
export interface Toolset {
  /** One line: what its tools reach, for the MCP sign-in consent page. */
  description: string;
  /** Whether any of its tools writes: a read-only grant of it still lists its read tools only. */
  writes: boolean;
}

export interface Platform<C = unknown> {
  name: string;
  /** What the platform is, for listings and the connect page. */
  vendor: string;
  tools: ToolLoaders<C>;
  /**
   * Every group its tools are tagged with (toolGroup), described: MCP toolsets, `?toolsets=` and
   * the scopes of MCP sign-in (shared/identity/mcp-oauth/scopes.ts). createRegistry checks that
   * the groups and this list agree.
   */
  toolsets: Readonly<Record<string, Toolset>>;
  /** How its end users connect it: API key and/or the vendor's OAuth flow (shared/core/platform-auth.ts). */
  auth: PlatformAuth<C>;
  client(key: string, env: PlatformEnv): C;
  defaultBaseUrl: string;
  /** Calls per key the service admits by default: the vendor's published limit (config.ts rateLimitFor). */
  rateLimit?: RateLimit;
  /**
   * The JSON Schema of each tool's `format=json` result, by tool name: the platform's generated
   * shared/catalog/output/<platform>.json (npm run schemas), loaded on first use so a bundle
   * carries its own platform's only.
   */
  outputSchemas?: () => Promise<Readonly<Record<string, Record<string, unknown>>>>;
  /**
   * The group of the platform's main object (what its vendor is about, e.g. "records"): its find
   * tool is the core set a deferred tool listing loads up front (shared/catalog/profiles.ts).
   */
  mainGroup?: string;
  /**
   * The platform's part of the event inbox (shared/events): its webhook scheme — how the vendor's
   * webhooks are made, verified and authenticated — loaded on first use; absent: no webhooks.
   */
  events?: () => Promise<EventsAdapter<C, any>>;
  /** What tool search knows of the platform beside its tools' names and descriptions (shared/catalog/search.ts). */
  search?: PlatformSearch;
}

export interface PlatformSearch {
  /**
   * Values that point to this platform when a request holds them: its links, the shape of its
   * ids, its products' names. A request with none of any platform's ranks all platforms alike.
   */
  cues?: readonly RegExp[];
  /**
   * Example requests per tool name, in many voices (functions/<p>/search-examples.json): what the
   * search model learns from, read only where it is built (infra/build.ts, or from source on the
   * first search); a bundle carries the built model instead.
   */
  examples?: () => Promise<Readonly<Record<string, readonly string[]>>>;
}

/** The groups of a platform's tools, in manifest order, each once. */
export function groupsOf(platform: Platform<any>): string[] {
  return [...new Set(Object.keys(platform.tools).map((name) => groupOf(platform, name) ?? ''))];
}

export function definePlatform<C>(platform: Platform<C>): Platform<C> {
  return platform;
}
