/** Skills (SEP-2640) served from a folder: `skills/list`, `skills/get`, and the files through `resources/read`. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envelope, post } from '@switchboard/test-helpers';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMcpServer, type ServeHandle, type SkillProvider, serve } from '../src/index.js';

let handle: ServeHandle & { url: string };
let directory: string;
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'skills-'));
  mkdirSync(join(directory, 'release-notes'));
  writeFileSync(
    join(directory, 'release-notes', 'SKILL.md'),
    '---\nname: release-notes\ndescription: Writes release notes from merged changes.\n---\n\nList the changes, newest first.\n',
  );
  writeFileSync(join(directory, 'release-notes', 'template.txt'), 'Version {version}\n');
  mkdirSync(join(directory, 'release-notes', 'examples'));
  writeFileSync(join(directory, 'release-notes', 'examples', 'minor.md'), '# 1.1.0\n');
  const server = createMcpServer({ name: 'skills', version: '1.0.0', skills: { directory } });
  handle = (await serve(server, { transport: { type: 'http', port: 0 } })) as ServeHandle & { url: string };
});
afterAll(async () => {
  await handle.close();
  rmSync(directory, { recursive: true, force: true });
});

test('declares the extension, lists and gets the skill, and serves its files checked against their digests', async () => {
  const discover = await post(handle.url, 'server/discover', { _meta: envelope() });
  expect(discover.body.result?.capabilities).toMatchObject({
    extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    resources: {},
  });
  const listed = await post(handle.url, 'skills/list', { _meta: envelope() });
  expect(listed.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  const [skill] = (listed.body.result?.skills ?? []) as Array<{
    uri: string;
    frontmatter: { name: string };
    resources: Array<{ uri: string; digest: string }>;
  }>;
  expect(skill?.uri).toBe('skill://release-notes/SKILL.md');
  expect(skill?.frontmatter.name).toBe('release-notes');
  const got = await post(
    handle.url,
    'skills/get',
    { uri: 'skill://release-notes/SKILL.md', _meta: envelope() },
    { 'mcp-name': undefined },
  );
  expect(got.body.result?.skill).toEqual(skill);
  const template = skill?.resources.find((resource) => resource.uri.endsWith('template.txt'));
  const read = await post(handle.url, 'resources/read', { uri: template?.uri, _meta: envelope() });
  const text = ((read.body.result?.contents ?? []) as Array<{ text: string }>)[0]?.text as string;
  expect(text).toBe('Version {version}\n');
  expect(template?.digest).toBe(`sha256:${createHash('sha256').update(text).digest('hex')}`);
  const resources = await post(handle.url, 'resources/list', { _meta: envelope() });
  expect(resources.body.result?.resources).toEqual([
    expect.objectContaining({
      uri: 'skill://release-notes/SKILL.md',
      name: 'release-notes',
      mimeType: 'text/markdown',
    }),
  ]);
  const unknown = await post(
    handle.url,
    'skills/get',
    { uri: 'skill://nope/SKILL.md', _meta: envelope() },
    { 'mcp-name': undefined },
  );
  expect(unknown.body.error?.code).toBe(-32602);
});

test('resources/directory/read lists the direct children of a skill folder; a file or unknown URI is -32602', async () => {
  const read = (uri: string) =>
    post(handle.url, 'resources/directory/read', { uri, _meta: envelope() }, { 'mcp-name': undefined });
  const root = await read('skill://release-notes');
  expect(root.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  expect(root.body.result?.resources).toEqual([
    { uri: 'skill://release-notes/SKILL.md', name: 'SKILL.md', size: expect.any(Number) },
    { uri: 'skill://release-notes/examples', name: 'examples', mimeType: 'inode/directory' },
    { uri: 'skill://release-notes/template.txt', name: 'template.txt', size: 18 },
  ]);
  const inner = await read('skill://release-notes/examples/');
  expect(inner.body.result?.resources).toEqual([
    { uri: 'skill://release-notes/examples/minor.md', name: 'minor.md', size: 8 },
  ]);
  for (const uri of ['skill://release-notes/template.txt', 'skill://nope', 'skill://release-notes/missing']) {
    expect((await read(uri)).body.error?.code, uri).toBe(-32602);
  }
});

test('lists a folder and other skill providers as one paged listing, declared to both eras', async () => {
  const extra = {
    uri: 'skill://elsewhere/notes/SKILL.md',
    frontmatter: { name: 'notes', description: 'Takes notes.' },
    resources: 'dynamic' as const,
  };
  const provider: SkillProvider = {
    specificationVersion: 'v1',
    subscribable: false,
    servesSkills: () => true,
    listSkills: () => [extra],
    getSkill: (uri) => (uri === extra.uri ? extra : undefined),
    listResources: () => [],
    listResourceTemplates: () => [],
    readResource: () => undefined,
  };
  const server = createMcpServer({
    name: 'skills-providers',
    version: '1.0.0',
    skills: { directory, pageSize: 1 },
    skillProviders: [provider],
  });
  const served = (await serve(server, { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
  try {
    const first = await post(served.url, 'skills/list', { _meta: envelope() });
    expect(((first.body.result?.skills ?? []) as Array<{ uri: string }>).map((skill) => skill.uri)).toEqual([
      'skill://release-notes/SKILL.md',
    ]);
    const second = await post(served.url, 'skills/list', {
      cursor: first.body.result?.nextCursor,
      _meta: envelope(),
    });
    expect(second.body.result?.skills).toEqual([extra]);
    expect(second.body.result?.nextCursor).toBeUndefined();
    const got = await post(
      served.url,
      'skills/get',
      { uri: extra.uri, _meta: envelope() },
      { 'mcp-name': undefined },
    );
    expect(got.body.result?.skill).toEqual(extra);
    // A 2025 client sees the extension declared too (as the SDK's own extension declares it).
    expect(server.capabilities('legacy')).toMatchObject({
      extensions: { 'io.modelcontextprotocol/skills': {} },
    });
  } finally {
    await served.close();
    await server.close();
  }
});
