import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpClient } from '@switchboard/client';
import { everythingStdio, readLines, serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from './run-cli-helper.js';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const sandbox = createSandbox();
const configFile = join(sandbox.root, 'mcp.json');

beforeAll(() => {
  mkdirSync(sandbox.home, { recursive: true });
  writeFileSync(
    configFile,
    JSON.stringify({
      mcpServers: {
        everything: everythingStdio(),
        memory: {
          command: process.execPath,
          args: [serverScript('server-memory')],
          env: { MEMORY_FILE_PATH: join(sandbox.root, 'memory.jsonl') },
        },
      },
    }),
  );
});
afterAll(() => sandbox.cleanup());

/** Waits for the first line of `child`'s stderr that `pattern` matches; fails at once if it exits first. */
async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  const lines = readLines(child.stderr!, "serve's stderr");
  const line = await lines.find((text) => pattern.test(text), {
    timeoutMs: 30_000,
    what: `serve to print ${pattern}`,
  });
  return pattern.exec(line) as RegExpExecArray;
}

describe('switchboard serve', () => {
  it('serves the configured servers as one gateway over Streamable HTTP, then stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      const client = await createMcpClient('gateway', { url: url! });
      try {
        const names = (await client.listTools()).map((tool) => tool.name);
        expect(names).toContain('mcp__everything__echo');
        expect(names).toContain('mcp__memory__read_graph');
        const result = await client.callTool('mcp__everything__echo', { message: 'through the gateway' });
        expect(JSON.stringify(result.content)).toContain('through the gateway');
      } finally {
        await client.close();
      }
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serves over stdio: an MCP client spawns `switchboard serve` and calls an upstream tool', async () => {
    const client = await createMcpClient('gateway', {
      command: process.execPath,
      args: [bin, 'serve', '--config', configFile],
      env: { SWITCHBOARD_HOME: sandbox.home, SWITCHBOARD_LOG: 'silent' },
    });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain('mcp__everything__get-sum');
      const result = await client.callTool('mcp__everything__get-sum', { a: 2, b: 3 });
      expect(JSON.stringify(result.content)).toContain('5');
    } finally {
      await client.close();
    }
  });

  it('relays results unchanged to official clients of both eras (structured output, image, resource links)', async () => {
    // The reference: the same calls made directly on server-everything.
    const direct = new LegacyClient({ name: 'direct', version: '1.0.0' });
    await direct.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [serverScript('server-everything'), 'stdio'],
      }),
    );
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const legacy = new LegacyClient({ name: 'sdk-v1', version: '1.0.0' });
    const modern = new ModernClient(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      await legacy.connect(new LegacyTransport(new URL(url!)));
      await modern.connect(new ModernTransport(new URL(url!)));
      expect(modern.getProtocolEra()).toBe('modern');
      // Both clients read the tool list first, as the SDKs check structured output against it.
      await legacy.listTools();
      await modern.listTools();
      const calls: Array<[string, Record<string, unknown>]> = [
        ['get-structured-content', { location: 'New York' }],
        ['get-tiny-image', {}],
        ['get-resource-links', { count: 2 }],
        ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ];
      for (const [tool, args] of calls) {
        const expected = await direct.callTool({ name: tool, arguments: args });
        expect(expected.isError, tool).not.toBe(true);
        const viaLegacy = await legacy.callTool({ name: `mcp__everything__${tool}`, arguments: args });
        const viaModern = await modern.callTool({ name: `mcp__everything__${tool}`, arguments: args });
        expect(viaLegacy, `${tool} (2025-11-25 client)`).toEqual(expected);
        // 2026-07-28 results name the server that answered in _meta: the gateway, as the spec asks.
        expect(withoutServerInfo(viaModern), `${tool} (2026-07-28 client)`).toEqual(expected);
      }
    } finally {
      await Promise.allSettled([legacy.close(), modern.close(), direct.close()]);
      child.kill('SIGKILL');
    }
  });

  it("lets server-everything's elicitation and sampling requests reach the downstream client of each era", async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const asked: string[] = [];
    const handlers = {
      elicitation: { form: {} },
      sampling: {},
    };
    const modern = new ModernClient(
      { name: 'sdk-v2', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: handlers },
    );
    modern.setRequestHandler('elicitation/create', (request) => {
      asked.push(`modern elicitation: ${request.params.message}`);
      return { action: 'accept', content: { color: 'red' } };
    });
    modern.setRequestHandler('sampling/createMessage', () => {
      asked.push('modern sampling');
      return { role: 'assistant', model: 'scripted', content: { type: 'text', text: 'sampled downstream' } };
    });
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      await modern.connect(new ModernTransport(new URL(url!)));
      const tools = (await modern.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('mcp__everything__trigger-elicitation-request');
      const elicited = await modern.callTool({
        name: 'mcp__everything__trigger-elicitation-request',
        arguments: {},
      });
      expect(elicited.isError).not.toBe(true);
      expect(JSON.stringify(elicited.content)).toContain('red');
      const sampled = await modern.callTool({
        name: 'mcp__everything__trigger-sampling-request',
        arguments: { prompt: 'hello', maxTokens: 20 },
      });
      expect(JSON.stringify(sampled.content)).toContain('sampled downstream');
      expect(asked).toEqual([expect.stringMatching(/^modern elicitation: /), 'modern sampling']);

      // A 2025-11-25 client on the same URL: the same requests arrive pushed on its session.
      const legacy = new LegacyClient(
        { name: 'sdk-v1', version: '1.0.0' },
        { capabilities: { elicitation: {}, sampling: {} } },
      );
      legacy.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(`legacy elicitation: ${request.params.message}`);
        return { action: 'accept', content: { color: 'blue' } };
      });
      legacy.setRequestHandler(CreateMessageRequestSchema, () => {
        asked.push('legacy sampling');
        return { role: 'assistant', model: 'scripted', content: { type: 'text', text: 'sampled by v1' } };
      });
      await legacy.connect(new LegacyTransport(new URL(url!)));
      try {
        const elicitedLegacy = await legacy.callTool({
          name: 'mcp__everything__trigger-elicitation-request',
          arguments: {},
        });
        expect(JSON.stringify(elicitedLegacy.content)).toContain('blue');
        const sampledLegacy = await legacy.callTool({
          name: 'mcp__everything__trigger-sampling-request',
          arguments: { prompt: 'hello', maxTokens: 20 },
        });
        expect(JSON.stringify(sampledLegacy.content)).toContain('sampled by v1');
        expect(asked.slice(2)).toEqual([expect.stringMatching(/^legacy elicitation: /), 'legacy sampling']);
      } finally {
        await legacy.close();
      }
    } finally {
      await modern.close().catch(() => {});
      child.kill('SIGKILL');
    }
  });

  it('serves a folder of skills beside the gateway tools (--skills), and refuses a missing folder', async () => {
    const skills = join(sandbox.root, 'skills');
    mkdirSync(join(skills, 'release-notes'), { recursive: true });
    writeFileSync(
      join(skills, 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes from merged changes\n---\n\nCollect the changes, group them, write the notes.\n',
    );
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--http', '--port', '0', '--config', configFile, '--skills', skills],
      { env: { ...sandbox.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      const client = await createMcpClient('gateway', { url: url! });
      try {
        expect(client.era).toBe('modern');
        const listed = await client.listSkills();
        expect(listed.map((skill) => skill.frontmatter.name)).toEqual(['release-notes']);
        const file = await client.readSkill(listed[0]!);
        expect(JSON.stringify(file)).toContain('group them, write the notes');
        // The upstream tools are still there.
        expect((await client.listTools()).map((tool) => tool.name)).toContain('mcp__everything__echo');
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
    const missing = await sandbox.run([
      'serve',
      '--config',
      configFile,
      '--skills',
      join(sandbox.root, 'nope'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--skills: no folder at');
  });

  it('refuses HTTP-only options without --http, exit 2', async () => {
    const run = await sandbox.run(['serve', '--port', '4000', '--config', configFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--http');
  });
});

/** A result without the `_meta` key by which a 2026-07-28 server names itself (and `_meta` if that was all). */
function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta: meta, ...rest } = result as { _meta?: Record<string, unknown> };
  if (meta === undefined) return rest;
  const { 'io.modelcontextprotocol/serverInfo': _server, ...others } = meta;
  return Object.keys(others).length > 0 ? { ...rest, _meta: others } : rest;
}
