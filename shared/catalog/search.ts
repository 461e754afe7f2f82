import type { Registry } from '../core/registry';
import { catalog, type CatalogEntry, type JsonSchema } from './catalog';
import { classify, scoreExamples, type SearchModel } from './search-model';
import { firstSentence, rawWords, SAME_WORD, STOPWORDS, stem, tokenize } from './words';

export { firstSentence, stem, tokenize } from './words';
import { loadSearchModel } from './search-data';

/**
 * Tool search: BM25 over each tool's name, the first sentence of its description, its parameter
 * names and the rest of its description — a compact scorer of our own (a few hundred tools need no
 * search library, and the bundle stays small). Fields are weighted per term (a simplified BM25F):
 * a word in the tool's name says more than one in its summary, which says more than one deep in
 * the description. On top of the text score:
 * - a platform's own words ("Podio", "HubSpot", "CRM", "ShareFile", "Tape", "BatchData", or the
 *   platform's name) steer to that platform's tools instead of being searched for;
 * - vendor synonyms meet the tools' own words (deal/opportunity, item/record, hook/webhook…);
 * - a tool whose whole name the request covers (verb and object) ranks above one that shares a
 *   word with it ("list workspaces" → listWorkspaces before listWorkspaceMembers);
 * - a request without a verb that writes prefers the tools that only read, and the reverse; a
 *   question ("who uploaded…?") reads;
 * - a verb counts in a tool's name and summary only, where it says what the tool does, not in the
 *   rest of the description, which uses verbs in passing;
 * - a query word counts once per tool, by the best of itself and its synonyms, and a tool meeting
 *   only part of the request (the verb, not the object) keeps only part of its score;
 * - the verb and object weigh more than what qualifies them: words after a preposition or in a
 *   relative clause ("a folder for a client", "items that match a filter"), participles ("an
 *   uploaded file") and the event awaited after "when" ("a webhook when an item changes");
 * - a street address is a value, not words to search for: it reads as "look up a property".
 * Every word's score in every tool is computed when the index is built; a query adds up the
 * tools its words reach.
 */

const WEIGHTS = { name: 5, summary: 2, params: 1, description: 0.5 } as const;
const K1 = 1.2;
const B = 0.75;


/**
 * Words people use for what the tools call otherwise, by the vendors' own vocabulary and the
 * verbs of the tool names (create, get, list, search, update, delete…). Each query word also looks
 * for these, at SYNONYM_WEIGHT; the word itself scores higher.
 */
const VERB_SYNONYMS: Record<string, readonly string[]> = {
  // What a request says → the verb a tool name starts with.
  add: ['create', 'attach'],
  new: ['create'],
  make: ['create'],
  build: ['create'],
  open: ['create', 'get'],
  start: ['create', 'activate', 'run'],
  register: ['create'],
  post: ['create'],
  write: ['create', 'update'],
  save: ['create', 'update'],
  import: ['batch', 'create', 'upload'],
  find: ['search', 'filter', 'lookup', 'get'],
  look: ['lookup', 'search', 'get'],
  see: ['get', 'list'],
  view: ['get', 'list'],
  display: ['get', 'list'],
  detail: ['get'],
  fetch: ['get', 'download'],
  retrieve: ['get'],
  read: ['get', 'list'],
  check: ['get', 'validate'],
  remove: ['delete'],
  erase: ['delete'],
  drop: ['delete'],
  revoke: ['delete', 'remove'],
  ask: ['request'],
  archive: ['delete'],
  stop: ['pause'],
  disable: ['pause', 'delete', 'update'],
  enable: ['activate', 'update'],
  resume: ['activate'],
  edit: ['update'],
  modify: ['update'],
  rename: ['update'],
  set: ['update'],
  mark: ['update'],
  move: ['update'],
  close: ['update'],
  complete: ['update', 'completed'],
  finish: ['update', 'completed'],
  assign: ['update', 'responsible'],
  duplicate: ['copy', 'clone'],
  clone: ['copy'],
  copy: ['clone'],
  undelete: ['restore'],
  recover: ['restore'],
  test: ['simulate', 'validate'],
  trigger: ['run', 'call'],
  send: ['create', 'notification', 'reply'],
  email: ['notification'],
  notify: ['notification', 'hook', 'webhook'],
  grant: ['access', 'create'],
  give: ['create', 'add', 'access'],
  link: ['share', 'association', 'relation', 'reference'],
  associate: ['association'],
  count: ['aggregate', 'search', 'list', 'filter'],
  sum: ['aggregate'],
  total: ['aggregate'],
  average: ['aggregate'],
  calculate: ['aggregate'],
  // Everyday verbs for the same actions.
  cancel: ['delete', 'pause'],
  invite: ['add', 'create', 'participant', 'member'],
  kick: ['remove', 'delete'],
  expel: ['remove', 'delete'],
  unsubscribe: ['delete', 'subscription'],
  terminate: ['delete'],
  kill: ['delete', 'pause'],
  suspend: ['pause', 'update'],
  block: ['update', 'delete'],
  watch: ['subscribe', 'event'],
  follow: ['subscribe', 'event'],
  monitor: ['subscribe', 'event'],
  alert: ['subscribe', 'event', 'notification'],
  answer: ['reply'],
  respond: ['reply'],
  swap: ['replace'],
  substitute: ['replace'],
  relocate: ['move'],
  transfer: ['move'],
  put: ['upload', 'move'],
  store: ['upload'],
  connect: ['association', 'create'],
  belong: ['association', 'get'],
  relate: ['association', 'relation'],
  detach: ['delete'],
  unlink: ['delete'],
  tally: ['aggregate'],
  summarize: ['markdown', 'analyze'],
  summarise: ['markdown', 'analyze'],
  extract: ['markdown', 'convert'],
  inspect: ['analyze', 'get'],
  describe: ['analyze', 'get'],
  contain: ['list', 'children'],
  remind: ['task', 'create'],
  push: ['update'],
  postpone: ['update'],
  reschedule: ['update'],
  delay: ['update'],
  extend: ['update'],
  upgrade: ['update'],
  downgrade: ['update'],
  cap: ['update', 'max'],
  limit: ['update', 'max'],
  acknowledge: ['ack'],
  fix: ['update'],
  correct: ['update'],
  reassign: ['update', 'responsible'],
  shift: ['move'],
  reuse: ['clone', 'copy'],
  load: ['import', 'batch', 'create'],
  tag: ['mention', 'comment'],
  tell: ['comment', 'reply', 'conversation'],
  automatically: ['automation'],
  automatic: ['automation'],
  largest: ['aggregate'],
  smallest: ['aggregate'],
  highest: ['aggregate'],
  lowest: ['aggregate'],
  maximum: ['aggregate'],
  minimum: ['aggregate'],
  processed: ['ack'],
  handled: ['ack'],
};
const OBJECT_SYNONYMS: Record<string, readonly string[]> = {
  // The vendors' words for the same thing.
  deal: ['opportunity'],
  opportunity: ['deal'],
  record: ['item'],
  entry: ['record', 'item'],
  folder: ['item'],
  file: ['item'],
  document: ['file', 'item'],
  doc: ['file', 'item'],
  pipeline: ['stage'],
  chat: ['conversation'],
  history: ['revision'],
  version: ['revision'],
  bulk: ['batch'],
  permission: ['access', 'control'],
  right: ['access', 'control'],
  access: ['control'],
  member: ['user', 'participant'],
  user: ['member'],
  colleague: ['user', 'member'],
  coworker: ['user', 'member'],
  employee: ['user'],
  client: ['user', 'contact'],
  customer: ['contact', 'company'],
  person: ['contact', 'user'],
  people: ['contact', 'user', 'member', 'participant'],
  lead: ['contact'],
  field: ['property'],
  note: ['comment'],
  reply: ['comment'],
  expire: ['expiration'],
  expiry: ['expiration'],
  log: ['run'],
  credit: ['usage'],
  consumption: ['usage'],
  ocr: ['markdown'],
  pdf: ['markdown', 'file'],
  house: ['property'],
  home: ['property'],
  parcel: ['property'],
  own: ['owner'],
  similar: ['comparable'],
  comps: ['comparable'],
  valuation: ['comparable', 'value'],
  // Podio's spaces and orgs are Tape's workspaces and organizations; a database is an app.
  space: ['workspace'],
  workspace: ['space'],
  organisation: ['organization'],
  database: ['app'],
  table: ['app'],
  column: ['field'],
  attachment: ['file'],
  acl: ['access', 'control'],
  photo: ['file', 'image'],
  picture: ['file', 'image'],
  image: ['file'],
  scan: ['file', 'markdown'],
  contract: ['file'],
  spreadsheet: ['file'],
  invoice: ['file'],
  teammate: ['user', 'member'],
  staff: ['user', 'member'],
  partner: ['user', 'contact'],
  guest: ['user'],
  content: ['children', 'list'],
  subscription: ['subscribe'],
  kanban: ['view'],
  overdue: ['due'],
  wording: ['revision', 'value'],
  dropdown: ['property', 'field', 'option'],
  option: ['property', 'field'],
  office: ['company'],
  headquarters: ['company'],
  account: ['user'],
  lately: ['list'],
  recently: ['list'],
  case: ['ticket'],
  issue: ['ticket'],
};
const SYNONYMS: Record<string, readonly string[]> = { ...VERB_SYNONYMS, ...OBJECT_SYNONYMS };
const SYNONYM_WEIGHT = 0.5;
/** A word's synonyms come nearest first ("open" is create before get): each next one weighs this much less. */
const SYNONYM_DECAY = 0.85;

/**
 * The verbs of requests and tool names. A tool's name and summary say what it does; the rest of
 * its description uses verbs in passing ("…shows the fields", "use this to find…"), so a verb counts
 * only in those two. Words that are as often nouns (a view, an email, a trigger) are left out.
 */
const VERB_FIELDS: readonly Field[] = ['name', 'summary'];
const NOUN_TOO = new Set('view email trigger link count sum total average detail new log test'.split(' '));
const ACTION_VERBS = new Set(
  [
    ...Object.keys(VERB_SYNONYMS).filter((w) => !NOUN_TOO.has(w)),
    ...'get list create update delete search filter lookup batch restore validate activate pause run simulate call generate replace request subscribe ack upload download attach share reply leave aggregate analyze convert'.split(' '),
  ].map((w) => stem(w)),
);


/**
 * Values in a request — quoted names, email addresses, links, amounts, dates, file names, numbers —
 * are what a tool will take, not words that say which tool: each is read as the kind of value it is.
 */
const VALUES: readonly [RegExp, string][] = [
  [/"[^"]*"|\u201c[^\u201d]*\u201d/g, ' '],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, ' email '],
  [/\bhttps?:\/\/\S+/g, ' url '],
  [/[$\u20ac\u00a3]\s?\d[\d,]*(?:\.\d+)?/g, ' amount '],
  [/\b\d{4}-\d{2}-\d{2}\b/g, ' date '],
  [/\b[\w-]+\.(?:pdf|docx?|xlsx?|pptx?|csv|txt|png|jpe?g|gif|zip)\b/gi, ' file '],
];
/**
 * A capitalised word inside a sentence is a name — of a person, a company, or the user's own app,
 * folder or table ("the Deals table", "the Payroll folder") — not a word of the tools; vendor names
 * and acronyms (PDF, CRM) stay.
 */
const NAME = /(?<=[^.:;!?\s]\s+|,\s*)(?!(?:County|City|State|Street)\b)[A-Z][a-z]+(?:'s)?\b/g;

/** Two-word requests that mean one word of a tool name. */
const PHRASES: readonly [RegExp, string][] = [
  [/\b(?:turn|switch)(?:s|ed|ing)? on\b/g, 'activate'],
  [/\b(?:turn|switch)(?:s|ed|ing)? off\b/g, 'pause'],
  [/\blook(?:s|ed|ing)? up\b/g, 'lookup'],
  [/\bset(?:s|ting)? up\b/g, 'create'],
  [/\bbring(?:s|ing)? back\b/g, 'restore'],
  [/\b(?:take|takes|taking|took) (?:back|away)\b/g, 'revoke'],
  [/\bget(?:s|ting)? rid of\b/g, 'delete'],
  [/\bstop(?:s|ped|ping)? (?:watching|following|monitoring|listening)\b/g, 'delete subscription'],
  // "how many records…" counts: not a batch.
  [/\bhow (?:many|much)\b/g, 'count'],
  // "who can see this folder": the access list of the thing.
  [/\bwho (?:can|could|may|has access to) (?:see|open|access|view|edit|read)\b/g, 'access control list'],
  [/\bwho (?:has|have) access\b/g, 'access control list'],
  // "what is in my home folder": its contents.
  [/\bwhat(?:'s| is| are)? (?:in|inside)\b/g, 'list contents'],
  [/\bto-?dos?\b/g, 'task'],
  [/\b(?:bring|brings|bringing|get|gets|getting|got)\s+(?:it|them|this|that|these|those)\s+back\b/g, 'restore'],
  [/\b(?:make|makes|making|put|puts|set|sets)\s+(?:it|them|this|that)\s+live\b|\bgo(?:es)? live\b/g, 'activate'],
  [/\bam i\b/g, 'current user status'],
  [/\bsince (?:i|we) last\b/g, 'new events'],
  // A request that starts with what it does: "log an expense", "link a ticket to a company", "message Tom".
  [/^\s*(?:log|record|enter|note down)\b/g, 'create'],
  [/^\s*(?:link|connect|associate)\b/g, 'associate'],
  [/^\s*(?:privately |directly )?(?:message|dm|text)\b/g, 'create conversation'],
  [/\b(?:attached|linked|associated|connected) (?:to|with)\b/g, 'association'],
  // Sale prices nearby are what comparables give.
  [/\b(?:recently sold|nearby sales|sells? for|selling for|sold for|price my|within (?:a|half a|\d+) miles?)\b/g, 'comparable'],
  [/\b(?:is|are) there\b|\balready\b/g, 'search'],
  [/^\s*where\b/g, 'find'],
  [/\bpull(?:s|ed|ing)? up\b/g, 'get'],
  [/\blet (?:me|us) know\b/g, 'subscribe events'],
  [/\b(?:take|takes|taking|took) (\w+) (?:out of|off)\b/g, 'remove $1 from'],
  [/\bwhat kinds? of\b|\bwhich kinds? of\b|\bwhat types? of\b/g, 'types catalog'],
  // "…written under a task": its comments.
  [/\b(?:written|said|posted|replied|commented)\s+(?:under|on|about)\b/g, 'comments on'],
  [/\b(?:record|log|enter|file)\s+(?:this|it|that|them)\b/g, 'create'],
  // "every order that is marked Shipped": records that match a condition.
  [/\b(?:that|which) (?:is|are|was|were|has|have)\b|\bwhere\b|\bwhose\b|\bmarked\b/g, 'filter'],
  // "send a document to the recycle bin": delete it (restoring from it is "bring back").
  [/\b(?:to|into|in) the (?:recycle bin|recycling bin|trash|bin)\b/g, 'delete'],
  [/\b(?:get|gets|getting|be|being) (?:notified|alerted)\b/g, 'subscribe events'],
  // "which fields does a ticket have": the object type's definition, not one record.
  [/\b(?:which|what) (?:fields|columns|properties|attributes)\b/g, 'fields properties definition'],
  [/\bwho am i\b/g, 'current user'],
  // Skip tracing finds a property's owner and how to reach them: what a property's record holds.
  [/\bskip[- ]?trac(?:e|es|ed|ing)\b/g, 'lookup owner property'],
  // A request that starts with the thing it adds: "comment on a task", "reply on a record".
  [/^\s*(comment|note|reply)\s+on\b/g, 'add $1 on'],
  [/\b(?:at once|in one (?:call|go|request)|in bulk|several|multiple|many)\b/g, 'batch'],
];

/**
 * Words that write: a request with none of them wants to read, and the reverse. Stems, as
 * tokenize() leaves them.
 */
const WRITE_WORDS = new Set(
  ('create add new make build register post write save import update change edit modify rename set mark move close complete finish assign ' +
    'delete remove erase drop revoke archive undelete recover restore stop disable enable resume activate pause start run trigger call ' +
    'send reply share grant give attach upload copy duplicate clone associate verify validate leave mint replace')
    .split(' ')
    .map((w) => stem(w)),
);
/** How much a tool of the other kind (reading when the request writes, writing when it reads) keeps of its score. */
const OTHER_INTENT = { read: 0.75, write: 0.85 } as const;
/** The weight of covering a tool's whole name: its score grows by up to this share. */
const NAME_COVERAGE = 1;
/** The weight of a tool name's words written as the request writes them (plural for plural). */
const EXACT_NAME = 0.3;
/** How much a tool of a platform the request names gains over the others. */
const PLATFORM_BOOST = 2.5;
/** Where a request turns from what it wants to the event it waits for. */
const EVENT_CLAUSE = /\b(?:when|whenever|each time|every time)\b/;
/** The weight of the event's words. */
const EVENT_WEIGHT = 0.5;
/** A US zip code or state after a comma means a place: the request is about an address. */
const ADDRESS = /\b\d{5}\b|,\s*[A-Z]{2}\b/;
/**
 * A house number before a street name: the request names one property (look it up), where a place
 * alone ("in Dallas, TX") is where to search.
 */
const STREET_NAME = String.raw`\b\d+[a-z]?\s+(?:[nsew]\.?\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|ln|lane|way|ct|court|pl|place|pkwy|hwy|ter|cir)\b\.?`;
const STREET = new RegExp(STREET_NAME, 'i');
/** The whole address a street starts: city, state and zip as far as they follow. */
const STREET_ADDRESS = new RegExp(String.raw`${STREET_NAME}(?:,?\s*[a-z]+(?:\s[a-z]+)?)?(?:,?\s*[a-z]{2}\b)?(?:\s*\d{5}(?:-\d{4})?)?`, 'g');
/** Where a request's verb and object end and what qualifies them begins. */
const MODIFIER = /\s(?:for|with|to|from|in|into|by|at|on|about|without|within|over|under|that|which|whose|who)\b/;
/** The weight of what qualifies the verb and object. */
const MODIFIER_WEIGHT = 0.7;

/** How much of a tool's score depends on meeting every word of the request (the rest is kept regardless). */
const QUERY_COVERAGE = 0.7;
/** A word in -ed after the verb: a participle. */
const PARTICIPLE = /\b[a-z]{3,}ed\b/g;
/** The weight of a participle ("an uploaded file"): it describes the object. */
const PARTICIPLE_WEIGHT = 0.5;
/** A noun of an -ate verb (association, activation), which stem() reads as the verb. */
const ACTION_NOUN = /\b[a-z]{3,}ations?\b/g;
/** A request that asks a question. */
const QUESTION = /^\s*(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|does|do|did|can|has|have)\b|\?\s*$/i;
/** A request's first word is usually its verb: it weighs this much more than the others. */
const FIRST_WORD_WEIGHT = 1.5;

/** SYNONYMS by the stem of the word, as queries are looked up ("remove" → "remov"). */
let stemmedSynonyms: Map<string, string[]> | undefined;
const synonymsOf = (word: string): readonly string[] =>
  (stemmedSynonyms ??= new Map(Object.entries(SYNONYMS).map(([w, syns]) => [stem(w), syns.map(stem)]))).get(word) ?? [];


/** Words of a text or an identifier as written, lower-cased: no stemming, no stopwords. */
function surface(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => SAME_WORD[w] ?? w);
}

/** Parameter names of a JSON Schema, nested objects and array items included. */
function paramNames(schema: JsonSchema, out: string[] = [], depth = 0): string[] {
  if (depth > 4) return out;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props) {
    for (const [name, sub] of Object.entries(props)) {
      out.push(name);
      paramNames(sub, out, depth + 1);
    }
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === 'object') paramNames(items, out, depth + 1);
  return out;
}

type Field = keyof typeof WEIGHTS;
const FIELDS = Object.keys(WEIGHTS) as Field[];

interface Doc {
  entry: CatalogEntry;
  /** Term counts per field. */
  tf: Record<Field, Map<string, number>>;
  length: Record<Field, number>;
  /** The distinct words of the tool's name: what NAME_COVERAGE measures against. */
  nameWords: readonly string[];
  /** The same words unstemmed: "views" is getViews more than getView. */
  nameSurface: readonly string[];
}

export interface SearchIndex {
  docs: Doc[];
  df: Map<string, number>;
  avgLength: Record<Field, number>;
  /** Each word that names a platform (its name, its vendor's) → that platform. */
  platformWords: Map<string, string>;
  /** Each word → the tools it occurs in (their index in docs) and its BM25F score in each. */
  postings: Map<string, { docs: number[]; scores: number[] }>;
  /** Each platform's cues (Platform.search.cues): values that point to it. */
  cues: Map<string, readonly RegExp[]>;
  /** What was learned from example requests, and each doc's tool in it (-1: a tool it does not know). */
  model?: { model: SearchModel; toolOf: Int32Array; fusion: Fusion };
}

/** What an index takes beside the catalog: the vendors' names, the platforms' cues and the model learned from examples. */
export interface IndexOptions {
  cues?: Readonly<Record<string, readonly RegExp[]>>;
  model?: SearchModel;
  /** The fusion's weights (FUSION unless measuring others, test/search/tune.ts). */
  fusion?: Fusion;
}

function counts(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** The shortest part of a glued word that counts as a word of its own. */
const COMPOUND_PART = 4;


export function buildIndex(entries: readonly CatalogEntry[], vendors: Readonly<Record<string, string>> = {}, options: IndexOptions = {}): SearchIndex {
  const platformWords = new Map<string, string>();
  for (const platform of new Set(entries.map((e) => e.platform))) {
    // The vendor's words each ("HubSpot CRM" → hubspot, crm), a one-word vendor as one word:
    // "ShareFile" must not make every filebox tool match "share".
    for (const w of tokenize(`${platform} ${(vendors[platform] ?? '').toLowerCase()}`)) platformWords.set(w, platform);
  }
  // A description naming another tool ("getApp lists the fields") says nothing about this one.
  const toolNames = new Set(entries.map((e) => e.name));
  const withoutToolNames = (text: string) => text.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (w) => (toolNames.has(w) ? ' ' : w));
  const df = new Map<string, number>();
  // Words as written first: a glued word is split before stemming ("closedate", not "closed").
  const fieldWords = entries.map((entry): Record<Field, string[]> => {
    const summary = firstSentence(entry.description);
    return {
      name: rawWords(entry.name),
      summary: rawWords(withoutToolNames(summary)),
      params: [...new Set(paramNames(entry.inputSchema).flatMap(rawWords))],
      description: rawWords(withoutToolNames(entry.description.slice(summary.length))),
    };
  });
  // Vendors glue words into one ("closedate", "dealstage", "lifecyclestage"): such a word also
  // counts as its two parts where both are words the tools use elsewhere.
  // Descriptions repeat their words: each is stemmed once.
  const stems = new Map<string, string>();
  const stemOf = (w: string) => {
    let st = stems.get(w);
    if (st === undefined) stems.set(w, (st = stem(w)));
    return st;
  };
  const vocabulary = new Set<string>();
  for (const w of fieldWords) for (const f of FIELDS) for (const word of w[f]) vocabulary.add(stemOf(word));
  const parts = new Map<string, readonly string[]>();
  const split = (word: string): readonly string[] => {
    let found = parts.get(word);
    if (!found) {
      found = [];
      for (let i = COMPOUND_PART; word.length >= 2 * COMPOUND_PART && i <= word.length - COMPOUND_PART; i++) {
        const [a, b] = [stemOf(word.slice(0, i)), stemOf(word.slice(i))];
        if (vocabulary.has(a) && vocabulary.has(b)) {
          found = [a, b];
          break;
        }
      }
      parts.set(word, found);
    }
    return found;
  };
  const docs = entries.map((entry, i) => {
    const words = fieldWords[i]!;
    for (const f of FIELDS) {
      const out: string[] = [];
      for (const w of words[f]) {
        out.push(stemOf(w));
        if (f !== 'name' && w.length >= 2 * COMPOUND_PART) out.push(...split(w));
      }
      words[f] = out;
    }
    const tf = {} as Doc['tf'];
    const length = {} as Doc['length'];
    for (const f of FIELDS) {
      tf[f] = counts(words[f]);
      length[f] = words[f].length;
    }
    for (const w of new Set(FIELDS.flatMap((f) => words[f]))) df.set(w, (df.get(w) ?? 0) + 1);
    return { entry, tf, length, nameWords: [...new Set(words.name)], nameSurface: surface(entry.name) };
  });
  const avgLength = {} as SearchIndex['avgLength'];
  for (const f of FIELDS) avgLength[f] = Math.max(1, docs.reduce((s, d) => s + d.length[f], 0) / Math.max(1, docs.length));
  // Every word's score in every tool, computed once: a query only adds up the tools its words reach.
  const cues = new Map(Object.entries(options.cues ?? {}));
  const model = options.model;
  const modelTools = new Map(model?.tools.map((t, i) => [t, i]));
  const index: SearchIndex = {
    docs,
    df,
    avgLength,
    platformWords,
    postings: new Map(),
    cues,
    ...(model ? { model: { model, fusion: options.fusion ?? FUSION, toolOf: Int32Array.from(entries, (e) => modelTools.get(`${e.platform}/${e.name}`) ?? -1) } } : {}),
  };
  docs.forEach((doc, i) => {
    for (const term of new Set(FIELDS.flatMap((f) => [...doc.tf[f].keys()]))) {
      const score = termScore(index, doc, term);
      if (score === 0) continue;
      let posting = index.postings.get(term);
      if (!posting) index.postings.set(term, (posting = { docs: [], scores: [] }));
      posting.docs.push(i);
      posting.scores.push(score);
    }
  });
  return index;
}

export interface SearchHit {
  entry: CatalogEntry;
  score: number;
}

/** What a request asks for: weighted words, the platforms it names, whether it writes. */
interface Query {
  terms: Map<string, number>;
  /**
   * Per query word, the word and its synonyms with their weights: a word counts once, by the
   * best of them, so "copy" does not score twice on a tool that says "copy" and is named "clone".
   */
  groups: Map<string, Map<string, number>>;
  /** The request's words as written. */
  surface: Set<string>;
  platforms: Set<string>;
  writes: boolean;
}

/** "pre-foreclosure" is also "preforeclosure", as vendors write it. */
const withJoined = (text: string) => `${text} ${[...text.matchAll(/\b([a-z]+)-([a-z]+)\b/g)].map((m) => m[1]! + m[2]!).join(' ')}`;

function parseQuery(index: SearchIndex, query: string): Query {
  let valued = query;
  for (const [value, kind] of VALUES) valued = valued.replace(value, kind);
  valued = valued.replace(NAME, (w) => (index.platformWords.has(stem(w.toLowerCase())) ? w : ' '));
  let text = valued.toLowerCase();
  for (const [phrase, word] of PHRASES) text = text.replace(phrase, word);
  // "a webhook when an item changes": what follows "when" is the event, not the action asked for.
  // An address is the value a tool takes, not words that describe the tool ("Phoenix" is an
  // example in a description): it is read as "an address" and its words are left out.
  const street = STREET.test(query);
  if (street) text = text.replace(STREET_ADDRESS, ' ');
  // What numbers are left are ids, counts and amounts: values, like the VALUES above.
  text = text.replace(/\b\d+\b/g, ' ');
  const cut = text.search(EVENT_CLAUSE);
  const action = cut < 0 ? text : text.slice(0, cut);
  const event = cut < 0 ? '' : text.slice(cut);
  // "create a folder for a client": the verb and its object come before the first preposition;
  // what follows it qualifies them and weighs less.
  const mod = action.search(MODIFIER);
  const head = tokenize(withJoined(mod < 0 ? action : action.slice(0, mod)));
  const words: [string, number][] = [...head.map((w): [string, number] => [w, 1]), ...(mod < 0 ? [] : tokenize(withJoined(action.slice(mod))).map((w): [string, number] => [w, MODIFIER_WEIGHT]))];
  if (street) words.push(['address', 1], ['property', 1], ['lookup', 1]);
  else if (ADDRESS.test(query)) words.push(['location', 1], ['property', 1]);
  const terms = new Map<string, number>();
  const groups = new Map<string, Map<string, number>>();
  const platforms = new Set<string>();
  let writes = false;
  const add = (word: string, weight: number) => {
    terms.set(word, Math.max(terms.get(word) ?? 0, weight));
    const group = groups.get(word) ?? new Map<string, number>();
    groups.set(word, group);
    const put = (term: string, w: number) => {
      terms.set(term, Math.max(terms.get(term) ?? 0, w));
      group.set(term, Math.max(group.get(term) ?? 0, w));
    };
    put(word, weight);
    let w = weight * SYNONYM_WEIGHT;
    for (const s of synonymsOf(word)) {
      put(s, w);
      w *= SYNONYM_DECAY;
    }
  };
  // A question ("who uploaded…", "which records…", "how many…?") asks to read, whatever its verb
  // says, and its first word is no command.
  const question = QUESTION.test(query);
  // "an uploaded file", "a shared folder": a participle says what the object is, not what to do.
  const participles = new Set([...action.matchAll(PARTICIPLE)].map((m) => stem(m[0])));
  // "associations of a deal" reads, though "associate" writes: the stem is one, the word a noun.
  const nouns = new Set([...action.matchAll(ACTION_NOUN)].map((m) => stem(m[0])));
  let first = !question;
  for (const [word, weight] of words) {
    const platform = index.platformWords.get(word);
    if (platform) {
      platforms.add(platform);
      continue;
    }
    if (!first && participles.has(word)) {
      add(word, weight * PARTICIPLE_WEIGHT);
      continue;
    }
    if (WRITE_WORDS.has(word) && !nouns.has(word)) writes = true;
    // The first word is usually the verb ("share a folder…", "add a comment…"), which tool names
    // carry too: it counts more, so the action outweighs a rare object word.
    add(word, first ? FIRST_WORD_WEIGHT : weight);
    first = false;
  }
  for (const word of tokenize(withJoined(event))) {
    const platform = index.platformWords.get(word);
    if (platform) platforms.add(platform);
    else add(word, EVENT_WEIGHT);
  }
  return { terms, groups, surface: new Set(surface(action)), platforms, writes: writes && !question };
}

/** BM25F of one word in one tool: each field's count normalised by its length, weighted, saturated. */
function termScore(index: SearchIndex, doc: Doc, term: string): number {
  let tf = 0;
  for (const f of ACTION_VERBS.has(term) ? VERB_FIELDS : FIELDS) {
    const c = doc.tf[f].get(term);
    if (c) tf += (WEIGHTS[f] * c) / (1 - B + (B * doc.length[f]) / index.avgLength[f]);
  }
  if (tf === 0) return 0;
  return idf(index, term) * ((tf * (K1 + 1)) / (tf + K1));
}

/** How rare a word is among the tools: BM25's inverse document frequency. */
function idf(index: SearchIndex, term: string): number {
  const df = index.df.get(term) ?? 0;
  return Math.log(1 + (index.docs.length - df + 0.5) / (df + 0.5));
}

/**
 * The word-based score of every tool for a parsed request (0: no word met), the platform a request
 * names counted in. BM25F: each field's term count is normalised by that field's length before the
 * fields are weighted and summed, so a long description does not drown a match in the name.
 */
function lexicalScores(index: SearchIndex, q: Query): Float64Array {
  const n = index.docs.length;
  const scores = new Float64Array(n);
  const matched = new Float64Array(n);
  const best = new Float64Array(n);
  let asked = 0;
  for (const [word, group] of q.groups) {
    // A word counts once per tool, by the best of its forms (itself or a synonym).
    const reached: number[] = [];
    for (const [term, weight] of group) {
      const posting = index.postings.get(term);
      if (!posting) continue;
      for (let k = 0; k < posting.docs.length; k++) {
        const d = posting.docs[k]!;
        const s = weight * posting.scores[k]!;
        if (best[d] === 0) reached.push(d);
        if (s > best[d]!) best[d] = s;
      }
    }
    const importance = group.get(word)!;
    asked += importance;
    for (const d of reached) {
      scores[d]! += best[d]!;
      matched[d]! += importance;
      best[d] = 0;
    }
  }
  for (let d = 0; d < n; d++) {
    const doc = index.docs[d]!;
    let score = scores[d]!;
    if (score === 0 && !(q.terms.size === 0 && q.platforms.has(doc.entry.platform))) continue;
    // A tool that meets the verb but not the object ("move a deal" → moveItem) answers part of the
    // request: the share of the request's words a tool meets scales its score.
    if (asked > 0) score *= 1 - QUERY_COVERAGE + (QUERY_COVERAGE * matched[d]!) / asked;
    const covered = doc.nameWords.reduce((s, w) => s + Math.min(1, q.terms.get(w) ?? 0), 0) / Math.max(1, doc.nameWords.length);
    const exact = doc.nameSurface.filter((w) => q.surface.has(w)).length / Math.max(1, doc.nameSurface.length);
    score *= 1 + NAME_COVERAGE * covered + EXACT_NAME * exact;
    if (q.platforms.has(doc.entry.platform)) score = (score || 1) * PLATFORM_BOOST;
    if (doc.entry.annotations.readOnly === q.writes) score *= q.writes ? OTHER_INTENT.write : OTHER_INTENT.read;
    scores[d] = score;
  }
  return scores;
}

/**
 * The weights of the fused ranking: each scorer's scores divided by its best, then weighted and
 * summed. Chosen on a held-out fifth of the example requests and rounds 1-7 of
 * test/search/eval-set.ts, round 8 kept apart as the check (test/search/tune.ts).
 */
export const FUSION: Fusion = { lexical: 0.6, examples: 0.8, classifier: 1, cue: 1, temperature: 2.5 };
export interface Fusion {
  lexical: number;
  examples: number;
  classifier: number;
  /** What a platform named or pointed to by a value (a link, an id's shape, an APN) adds to its tools' fused score. */
  cue: number;
  /**
   * The classifier's temperature: its probabilities are taken to the power 1/temperature before
   * they are divided by the best, so a confident wrong guess does not outweigh the other scorers.
   */
  temperature: number;
}

/** The platforms a request names or points to: their names and vendors' names, and each platform's cues (its links, id formats, product names). */
export function platformCues(index: SearchIndex, query: string, named: ReadonlySet<string> = parseQuery(index, query).platforms): Set<string> {
  const found = new Set(named);
  for (const [platform, cues] of index.cues) if (cues.some((c) => c.test(query))) found.add(platform);
  return found;
}

/**
 * The best `limit` tools for a free-text query, best first; tools matching nothing are left out
 * (a query of a platform's name alone lists that platform's tools). With the model learned from
 * example requests (shared/catalog/search-model.ts) three scorers are fused: the word-based one
 * above, BM25 over the examples and the classifier; without it (an index built from entries
 * alone) the word-based one ranks alone.
 */
export function searchIndex(index: SearchIndex, query: string, limit: number, platform?: string, allow?: (entry: CatalogEntry) => boolean): SearchHit[] {
  const q = parseQuery(index, query);
  const lexical = lexicalScores(index, q);
  let scores: Float64Array = lexical;
  const { model } = index;
  if (model) {
    const examples = scoreExamples(model.model.examples, query, model.model.tools.length);
    const probabilities = classify(model.model.classifier, query);
    const max = (a: ArrayLike<number>) => {
      let m = 0;
      for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
      return m || 1;
    };
    const [ml, me, mp] = [max(lexical), max(examples), max(probabilities)];
    // A request that meets no word of any tool or example ("zzqx wibble") finds nothing: the
    // classifier alone always guesses.
    if (ml === 1 && me === 1 && lexical.every((v) => v === 0) && examples.every((v) => v === 0)) return [];
    const cued = platformCues(index, query, q.platforms);
    const w = model.fusion;
    scores = new Float64Array(lexical.length);
    for (let d = 0; d < scores.length; d++) {
      const t = model.toolOf[d]!;
      let s = (w.lexical * lexical[d]!) / ml;
      if (t >= 0) s += (w.examples * examples[t]!) / me + w.classifier * (probabilities[t]! / mp) ** (1 / w.temperature);
      if (s > 0 && cued.has(index.docs[d]!.entry.platform)) s += w.cue;
      scores[d] = s;
    }
  }
  const hits: SearchHit[] = [];
  for (let d = 0; d < scores.length; d++) {
    const doc = index.docs[d]!;
    if (platform && doc.entry.platform !== platform) continue;
    // A service key's policy (shared/identity): search finds only what the key may call.
    if (allow && !allow(doc.entry)) continue;
    if (scores[d]! <= 0) continue;
    hits.push({ entry: doc.entry, score: scores[d]! });
  }
  // Ties keep registry order: deterministic answers.
  return hits.sort((a, b) => b.score - a.score).slice(0, limit);
}

const indexes = new WeakMap<Registry, Promise<SearchIndex>>();

/** The index of every tool of a registry, built once per container. */
export function registryIndex(registry: Registry): Promise<SearchIndex> {
  let index = indexes.get(registry);
  if (!index) {
    const platforms = [...registry.platforms.values()];
    const vendors = Object.fromEntries(platforms.map((p) => [p.name, p.vendor]));
    const cues = Object.fromEntries(platforms.map((p) => [p.name, p.search?.cues ?? []]));
    index = catalog(registry).then(async (entries) => buildIndex(entries, vendors, { cues, model: await loadSearchModel(registry, entries) }));
    index.catch(() => indexes.delete(registry));
    indexes.set(registry, index);
  }
  return index;
}

export const SEARCH_LIMIT = { default: 5, max: 50 } as const;

/** A search result as the HTTP route and the MCP tool search_tools return it. */
export function hitView(hit: SearchHit) {
  const { entry } = hit;
  return {
    platform: entry.platform,
    tool: entry.name,
    score: Math.round(hit.score * 1000) / 1000,
    /** One line on when to use it: the first sentence of its description. */
    description: firstSentence(entry.description),
    /** What a call must give: enough to call it next, or to know what to find first. */
    required: requiredParams(entry.inputSchema),
    annotations: entry.annotations,
    ...(entry.group ? { group: entry.group } : {}),
  };
}

/** A JSON Schema's type in a word or two: "integer", "string", "integer|string", "array of object". */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.type === 'string') return schema.type === 'array' ? `array of ${typeOf(schema.items as JsonSchema | undefined)}` : schema.type;
  if (Array.isArray(schema.type)) return schema.type.join('|');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return [...new Set(union.map(typeOf))].join('|');
  if (schema.enum) return 'enum';
  return 'any';
}

/** The required parameters of an input schema, each with its type. */
export function requiredParams(schema: JsonSchema): { name: string; type: string }[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return ((schema.required ?? []) as string[]).map((name) => ({ name, type: typeOf(props[name]) }));
}

/** Required parameters in one line: `record_id (integer), fields (object)`, or `none`. */
export const requiredLine = (required: readonly { name: string; type: string }[]) => (required.length ? required.map((r) => `${r.name} (${r.type})`).join(', ') : 'none');
