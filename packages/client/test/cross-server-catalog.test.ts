/**
 * Resources and prompts across a connection's servers, named as the gateway names them: URIs kept
 * unless two servers list one, prompts namespaced like tools, each item naming its server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { everythingStdio, memoryStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientErrorCode, connectMcp, type McpConnection, serverMetaKey } from '../src/index.js';

describe('resources and prompts across servers', () => {
  let connection: McpConnection;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-catalog-'));
    writeFileSync(join(dir, 'memory.jsonl'), '');
    connection = await connectMcp({
      one: everythingStdio(),
      two: everythingStdio(),
      memory: memoryStdio(join(dir, 'memory.jsonl')),
    });
  });
  afterAll(async () => {
    await connection?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists both servers’ resources, prefixing the URIs they share, each naming its server', async () => {
    const resources = await connection.listResources();
    const one = resources.filter((resource) => resource._meta?.[serverMetaKey] === 'one');
    const two = resources.filter((resource) => resource._meta?.[serverMetaKey] === 'two');
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBe(one.length);
    // Both list the same URIs, so every one is namespaced by its server.
    expect(one.every((resource) => resource.uri.startsWith('one+'))).toBe(true);
    expect(two.every((resource) => resource.uri.startsWith('two+'))).toBe(true);

    const first = one[0];
    if (!first) throw new Error('no resource');
    const read = await connection.readResource(first.uri);
    expect(read.contents[0]?.uri).toBe(first.uri);
  });

  it('lists prompts namespaced like tools and gets one from its own server', async () => {
    const prompts = await connection.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(names).toContain('mcp__one__simple-prompt');
    expect(names).toContain('mcp__two__simple-prompt');
    expect(prompts.find((prompt) => prompt.name === 'mcp__two__args-prompt')?._meta?.[serverMetaKey]).toBe(
      'two',
    );
    const prompt = await connection.getPrompt('mcp__two__args-prompt', { city: 'Lisbon', state: 'PT' });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });

  it('names what is missing: an unknown URI, an unknown prompt', async () => {
    const missingResource = await connection.readResource('nowhere://at/all').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.isInstance(missingResource) && missingResource.code).toBe(
      ClientErrorCode.ResourceNotFound,
    );
    expect((missingResource as Error).message).toMatch(/nowhere:\/\/at\/all.*one, two, memory/);
    const missingPrompt = await connection.getPrompt('mcp__one__no-such-prompt').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SwitchboardError.isInstance(missingPrompt) && missingPrompt.code).toBe(
      ClientErrorCode.PromptNotFound,
    );
    expect((missingPrompt as Error).message).toMatch(/Known prompts: .*mcp__one__simple-prompt/);
  });

  it('reads a URI one server’s template matches, through that server', async () => {
    const templates = await connection.listResourceTemplates();
    expect(templates.length).toBeGreaterThan(0);
    const template = templates.find((entry) => entry._meta?.[serverMetaKey] === 'one');
    if (!template) throw new Error('no template of server one');
    expect(template.uriTemplate.startsWith('one+')).toBe(true);
    const uri = template.uriTemplate.replace(/\{[^}]+\}/g, '1');
    const read = await connection.readResource(uri);
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.contents[0]?.uri).toBe(uri);
  });
});
