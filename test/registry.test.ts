import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { platforms } from '../infra/local/platforms';
import { createRegistry } from '../shared/core/registry';
import { groupOf } from '../shared/core/tool';
import { EVENT_TOOL_NAMES } from '../shared/events/group';
import { NOT_SHOWN_TOOLS, SPEC_TOOLS } from './spec-tools';

const registry = createRegistry(platforms);

/**
 * The one layout of a platform (docs/layout.md): at functions/<p>/ only these files; tools in
 * tools/<group>/<tool>.ts; helpers of a group in a folder named as the group (inputs.ts for its zod
 * fragments, render.ts for its result shapes and text, other files named after what they hold);
 * a model several groups share gets its own folder (fields, objects), the only place for an
 * index.ts or sub-folders outside tools/. The event inbox's tools are shared by every platform with
 * webhooks (shared/events/group.ts): no files under tools/, only the adapter in events/.
 */
const PLATFORM_FILES = ['client.ts', 'handler.ts', 'index.ts', 'params.ts', 'render.ts', 'search-examples.json', 'tool.ts', 'wire.ts'];
const MODEL_FOLDERS = ['fields', 'objects'];
const VAGUE_FILES = ['common.ts', 'shape.ts', 'shapes.ts', 'util.ts', 'utils.ts', 'helpers.ts', 'misc.ts', 'types.ts', 'shared.ts', 'params.ts'];
const all = (await Promise.all(platforms.map(async (p) => (await registry.list(p)).map((tool) => ({ platform: p.name, tool }))))).flat();

describe('registry', () => {
  it('loads every tool of every platform under its own name', () => {
    const names = all.map((t) => `${t.platform}/${t.tool.name}`);
    expect(names).toEqual(platforms.flatMap((p) => Object.keys(p.tools).map((name) => `${p.name}/${name}`)));
  });

  it('refuses a platform twice, a tool listed under another name or platform, and prototype keys', async () => {
    const p = platforms[0]!;
    expect(() => createRegistry([p, p])).toThrow(/twice/);
    const [first] = Object.entries(p.tools);
    const group = groupOf(p, first![0])!;
    const misnamed = createRegistry([{ ...p, tools: { somethingElse: first![1] }, toolsets: { [group]: p.toolsets[group]! } }]);
    await expect(misnamed.find(p.name, 'somethingElse')).rejects.toThrow(/is named/);
    const moved = createRegistry([{ ...p, name: 'other' }]);
    await expect(moved.find('other', first![0])).rejects.toThrow(/declares platform/);
    expect(await registry.find(p.name, 'constructor')).toBeUndefined();
    // The toolsets a descriptor describes are its tools' groups, no more and no fewer: the MCP sign-in scopes are read from them.
    const { [group]: _described, ...fewer } = p.toolsets;
    expect(() => createRegistry([{ ...p, toolsets: fewer }])).toThrow(new RegExp(`not described: ${group}`));
    expect(() => createRegistry([{ ...p, toolsets: { ...p.toolsets, nothing: { description: 'no tools', writes: false } } }])).toThrow(/no such group: nothing/);
    expect(await registry.find(p.name, 'toString')).toBeUndefined();
  });

  describe.each(platforms.map((p) => [p.name, p] as const))('%s layout: functions/<platform>/{client,wire,index,handler,tool,params,render}.ts, <group>/ helpers, tools/<group>/<tool>.ts', (name, p) => {
    const toolsDir = join(new URL('..', import.meta.url).pathname, 'functions', name, 'tools');
    const groups = readdirSync(toolsDir, { withFileTypes: true });
    const shared: readonly string[] = p.events ? EVENT_TOOL_NAMES : [];
    const ownTools = Object.keys(p.tools).filter((t) => !shared.includes(t));

    it('lists the shared event tools exactly when it has an event adapter, tagged "events"', () => {
      expect(Object.keys(p.tools).filter((t) => (EVENT_TOOL_NAMES as readonly string[]).includes(t))).toEqual(p.events ? [...EVENT_TOOL_NAMES] : []);
      for (const tool of shared) expect(groupOf(p, tool), tool).toBe('events');
    });

    it('has only group folders under tools/', () => {
      expect(groups.filter((g) => !g.isDirectory()).map((g) => g.name)).toEqual([]);
    });

    it('has one file per tool, named as the tool, and no file that is not a listed tool', () => {
      const files = groups.flatMap((g) =>
        readdirSync(join(toolsDir, g.name))
          .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
          .map((f) => f.slice(0, -3)),
      );
      expect(files.sort()).toEqual(ownTools.sort());
    });

    it('tags each tool with the group of the folder its file is in', () => {
      const folderOf = new Map(groups.flatMap((g) => readdirSync(join(toolsDir, g.name)).map((f) => [f.replace(/\.ts$/, ''), g.name] as const)));
      for (const tool of ownTools) expect(groupOf(p, tool), tool).toBe(folderOf.get(tool));
    });

    const platformDir = join(toolsDir, '..');
    const entries = readdirSync(platformDir, { withFileTypes: true });
    const groupNames = [...groups.filter((g) => g.isDirectory()).map((g) => g.name), ...(p.events ? ['events'] : [])];

    it(`keeps at its root only ${PLATFORM_FILES.join(', ')}`, () => {
      expect(entries.filter((e) => !e.isDirectory() && !PLATFORM_FILES.includes(e.name)).map((e) => e.name)).toEqual([]);
    });

    it(`has a helper folder per tool group (or a model shared by groups: ${MODEL_FOLDERS.join(', ')}), named as the group`, () => {
      const folders = entries.filter((e) => e.isDirectory() && e.name !== 'tools').map((e) => e.name);
      expect(folders.filter((f) => !groupNames.includes(f) && !MODEL_FOLDERS.includes(f))).toEqual([]);
    });

    it('names the helper files of a group after what they hold: inputs.ts, render.ts or a precise name, never a vague one', () => {
      const folders = entries.filter((e) => e.isDirectory() && e.name !== 'tools');
      const bad = folders.flatMap((f) =>
        readdirSync(join(platformDir, f.name), { withFileTypes: true })
          .filter((e) =>
            e.isDirectory()
              ? !MODEL_FOLDERS.includes(f.name) // sub-folders only inside a shared model (fields/types/)
              : !e.name.endsWith('.ts') || VAGUE_FILES.includes(e.name) || (e.name === 'index.ts' && !MODEL_FOLDERS.includes(f.name)),
          )
          .map((e) => `${f.name}/${e.name}`),
      );
      expect(bad).toEqual([]);
    });

    it('loads each tool from the file of its name, exporting it under that name', () => {
      const loaders = groups.flatMap((g) => {
        const index = readFileSync(join(toolsDir, g.name, 'index.ts'), 'utf8');
        return [...index.matchAll(/(\w+): \(\) => import\('\.\/(\w+)'\)\.then\(\(m\) => m\.(\w+)\)/g)].map(([, key, file, exported]) => ({ key, file, exported }));
      });
      expect(loaders.map((l) => l.key).sort()).toEqual(ownTools.sort());
      for (const l of loaders) expect([l.file, l.exported]).toEqual([l.key, l.key]);
    });
  });

  describe.each(all.map((t) => [`${t.platform}/${t.tool.name}`, t] as const))('%s', (_name, { platform, tool }) => {
    it('is named as the spec names it, in a file of the same name', () => {
      expect([...(SPEC_TOOLS[platform] ?? []), ...(NOT_SHOWN_TOOLS[platform] ?? [])]).toContain(tool.name);
      expect(tool.platform).toBe(platform);
    });

    it('has a description for a model and decided annotations', () => {
      expect(tool.description.length).toBeGreaterThan(60);
      expect(typeof tool.annotations.readOnly).toBe('boolean');
      expect(typeof tool.annotations.destructive).toBe('boolean');
      expect(typeof tool.annotations.idempotent).toBe('boolean');
      if (tool.annotations.readOnly) expect(tool.annotations.destructive).toBe(false);
    });

    it('has an input that converts to JSON Schema, every parameter described', () => {
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { type: string; properties?: Record<string, { description?: string }> };
      expect(schema.type).toBe('object');
      for (const [key, prop] of Object.entries(schema.properties ?? {})) expect(prop.description, `${tool.name}.${key}`).toBeTruthy();
    });

    it('accepts its example input and renders its example result as text', () => {
      const input = tool.input.parse(tool.example.input);
      const text = tool.text(tool.example.result, input);
      expect(typeof text).toBe('string');
      expect(text.length).toBeGreaterThan(0);
      expect(text).not.toMatch(/undefined|null|\[object Object\]/);
    });
  });
});

/**
 * One rule for MCP annotations on every platform, by the verb a tool's name starts with (after
 * `batch`): reads are readOnly; update, replace, move, delete, remove and leave are destructive;
 * every other write (create, add, upload, copy, run…) is not; a write that makes something new
 * each time is not idempotent. The exceptions are the few tools whose name misleads, each with why.
 */
const READ_VERBS = new Set(['get', 'list', 'search', 'filter', 'find', 'aggregate', 'analyze', 'download', 'lookup', 'comparable', 'convert']);
const DESTRUCTIVE_VERBS = new Set(['update', 'replace', 'move', 'delete', 'remove', 'leave']);
const WRITE_VERBS = new Set(['create', 'add', 'upload', 'copy', 'clone', 'attach', 'share', 'generate', 'reply', 'request', 'send', 'call', 'run', 'simulate', 'activate', 'pause', 'restore', 'make', 'validate', 'subscribe', 'ack']);
/** Writes that make a new thing on every call: never idempotent. */
const MAKES_NEW = new Set(['create', 'upload', 'copy', 'clone', 'reply', 'send', 'call', 'run', 'simulate', 'generate', 'subscribe']);
const EXCEPTIONS: Record<string, { kind: 'read' | 'destructive' | 'write'; idempotent?: boolean; why: string }> = {
  'dbapp/validateAutomation': { kind: 'read', why: 'checks an automation\'s references; writes nothing (unlike validate…Verification, which activates a hook)' },
  'crm/createAssociation': { kind: 'write', idempotent: true, why: 'links are a set: a second identical link changes nothing (the spec calls it an idempotent write)' },
  'filebox/createFolder': { kind: 'destructive', why: 'overwrite: true sends the existing item of that name to the recycle bin' },
  'filebox/copyItem': { kind: 'destructive', why: 'overwrite: true replaces the item of that name in the target folder' },
  'collab/copyItemFiles': { kind: 'destructive', why: 'overwrite_duplicates: true replaces the target item\'s files of the same name' },
};

describe('MCP annotations follow one rule on every platform', () => {
  // A name of the form <thing>To<Format> (fileToMarkdown) converts for reading: its verb is "convert".
  const verbOf = (name: string) => (/^[a-z]+To(Markdown|Text|Html|Pdf)$/.test(name) ? 'convert' : /^(?:batch)?([A-Za-z][a-z]*)/.exec(name)![1]!.toLowerCase());

  it.each(all.map((t) => [`${t.platform}/${t.tool.name}`, t.tool] as const))('%s', (id, tool) => {
    const verb = verbOf(tool.name);
    const exception = EXCEPTIONS[id];
    const kind = exception?.kind ?? (READ_VERBS.has(verb) ? 'read' : DESTRUCTIVE_VERBS.has(verb) ? 'destructive' : WRITE_VERBS.has(verb) ? 'write' : undefined);
    expect(kind, `${id}: verb "${verb}" is in no list: classify it`).toBeDefined();
    const a = tool.annotations;
    expect({ readOnly: a.readOnly, destructive: a.destructive }).toEqual({ readOnly: kind === 'read', destructive: kind === 'destructive' });
    if (exception?.idempotent !== undefined) expect(a.idempotent).toBe(exception.idempotent);
    else if (MAKES_NEW.has(verb)) expect(a.idempotent, `${id} makes something new on each call`).toBe(false);
  });

  it('keeps its exceptions few and every one of them needed', () => {
    expect(Object.keys(EXCEPTIONS).length).toBeLessThanOrEqual(8);
    for (const id of Object.keys(EXCEPTIONS)) expect(all.map((t) => `${t.platform}/${t.tool.name}`), id).toContain(id);
  });
});
