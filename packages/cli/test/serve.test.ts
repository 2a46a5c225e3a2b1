import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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
import {
  type EventLog,
  everythingStdio,
  filesystemStdio,
  readLines,
  serverScript,
} from '@switchboard/test-helpers';
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

/** The first line of `lines` that `pattern` matches, as its match. */
async function lineMatching(lines: EventLog<string>, pattern: RegExp): Promise<RegExpExecArray> {
  const line = await lines.find((text) => pattern.test(text), {
    timeoutMs: 30_000,
    what: `serve to print ${pattern}`,
  });
  return pattern.exec(line) as RegExpExecArray;
}

/** Waits for the first line of `child`'s stderr that `pattern` matches; fails at once if it exits first. */
function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return lineMatching(readLines(child.stderr!, "serve's stderr"), pattern);
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

  it('publishes its Server Card; inspect and doctor read it, and a config with the site URL alone connects', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--http', '--port', '0', '--config', configFile], {
      env: { ...sandbox.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [, url] = await waitForLine(child, /on (http:\/\/\S+)/);
      const card = (await (await fetch(`${url}/server-card`)).json()) as { name: string; version: string };
      expect(card).toMatchObject({
        version: expect.any(String),
        remotes: [{ type: 'streamable-http', url }],
      });
      // Only the site's origin in the config: the card says where the endpoint is.
      const siteFile = join(sandbox.root, 'site.json');
      sandbox.writeConfig(siteFile, { gateway: { url: new URL(url!).origin } });
      const inspected = await sandbox.run(['inspect', 'gateway', '--config', siteFile, '--json']);
      expect(inspected.code, inspected.stderr).toBe(0);
      const report = JSON.parse(inspected.stdout);
      expect(report.era).toBe('modern');
      expect(report.serverCard).toMatchObject({
        endpoint: url,
        protocolVersions: expect.arrayContaining(['2026-07-28']),
      });
      expect(report.tools.map((tool: { name: string }) => tool.name)).toContain('mcp__everything__echo');
      const text = await sandbox.run(['inspect', 'gateway', '--config', siteFile]);
      expect(text.stdout).toContain(`card: ${card.name} ${card.version} → ${url}`);
      const doctor = await sandbox.run(['doctor', 'gateway', '--config', siteFile, '--json']);
      expect(JSON.parse(doctor.stdout).servers[0].serverCard).toMatchObject({
        name: card.name,
        endpoint: url,
      });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses HTTP-only options without --http, exit 2', async () => {
    const run = await sandbox.run(['serve', '--port', '4000', '--config', configFile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--http');
  });
});

describe('switchboard serve: approval, and counts that agree', () => {
  const approvalConfig = join(sandbox.root, 'approval.json');
  const dataDir = join(sandbox.root, 'approval-data');

  beforeAll(() => {
    mkdirSync(dataDir, { recursive: true });
    sandbox.writeConfig(approvalConfig, {
      // echo is denied by a rule (hidden: the one approval decision that hides), get-sum filtered out.
      everything: everythingStdio({ approval: { deny: ['echo'] }, excludeTools: ['get-sum'] }),
      // write_file, edit_file, move_file need a person's yes (no readOnlyHint; destructive).
      files: filesystemStdio(dataDir),
    });
  });

  /** `switchboard serve` over stdio as a host runs it, its stderr kept; resolves once the banner is out. */
  async function serveStdio(extra: string[]) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--config', approvalConfig, ...extra],
      env: { ...sandbox.env, SWITCHBOARD_LOG: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    });
    const banner = lineMatching(
      readLines(transport.stderr as Readable, "serve's stderr"),
      /switchboard: serving (\d+) tools? .*/,
    );
    const client = new LegacyClient({ name: 'host', version: '1.0.0' });
    await client.connect(transport);
    const [line, count] = await banner;
    return { client, line, count: Number(count) };
  }

  const callError = (client: LegacyClient, name: string) =>
    client.callTool({ name, arguments: {} }).then(
      (result) => `no error: ${JSON.stringify(result)}`,
      (error: Error) => error.message,
    );

  it('by default lists the tools that need approval; the banner counts what tools/list returns; a missing tool says why', async () => {
    const { client, line, count } = await serveStdio([]);
    try {
      const tools = (await client.listTools()).tools;
      const names = tools.map((tool) => tool.name);
      expect(count).toBe(tools.length);
      expect(line).toContain('(approval auto; 1 more denied by approval rules, not served)');
      const write = tools.find((tool) => tool.name === 'mcp__files__write_file');
      expect(write?.annotations?.readOnlyHint).toBe(false);
      expect(names).toContain('mcp__everything__get-env');
      expect(names).not.toContain('mcp__everything__echo');
      expect(names).not.toContain('mcp__everything__get-sum');

      expect(await callError(client, 'mcp__everything__echo')).toContain(
        'deny glob "echo" of server "everything"',
      );
      expect(await callError(client, 'mcp__everything__get-sum')).toContain('includeTools / excludeTools');
      // A host that cannot be asked through an elicitation (none declared): the call runs, its host confirms.
      const file = join(dataDir, 'written.txt');
      const written = await client.callTool({
        name: 'mcp__files__write_file',
        arguments: { path: file, content: 'asked by the host' },
      });
      expect(written.isError ?? false).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe('asked by the host');
    } finally {
      await client.close();
    }
  });

  it('--approval hide: tools that need approval are not listed, the banner agrees, and a call says why', async () => {
    const { client, line, count } = await serveStdio(['--approval', 'hide']);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(count).toBe(names.length);
      expect(line).toContain('approval hide');
      expect(names).toContain('mcp__files__read_text_file');
      expect(names).not.toContain('mcp__files__write_file');
      expect(await callError(client, 'mcp__files__write_file')).toContain("approval prompt 'hide'");
    } finally {
      await client.close();
    }
  });

  it('refuses an unknown --approval (exit 2); --allow-approval-tools still works, as --approval host, with a warning', async () => {
    const wrong = await sandbox.run(['serve', '--config', approvalConfig, '--approval', 'ask']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--approval takes auto, elicit, host, hide');
    const both = await sandbox.run([
      'serve',
      '--config',
      approvalConfig,
      '--approval',
      'hide',
      '--allow-approval-tools',
    ]);
    expect(both.code).toBe(2);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'serve', '--config', approvalConfig, '--allow-approval-tools'],
      env: { ...sandbox.env, SWITCHBOARD_LOG: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    });
    const stderr = readLines(transport.stderr as Readable, "serve's stderr");
    const banner = lineMatching(stderr, /serving .*/);
    const deprecated = lineMatching(stderr, /--allow-approval-tools is deprecated/);
    const client = new LegacyClient({ name: 'host', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await banner)[0]).toContain('approval host');
      await deprecated;
    } finally {
      await client.close();
    }
  });
});

/** A result without the `_meta` key by which a 2026-07-28 server names itself (and `_meta` if that was all). */
function withoutServerInfo(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta: meta, ...rest } = result as { _meta?: Record<string, unknown> };
  if (meta === undefined) return rest;
  const { 'io.modelcontextprotocol/serverInfo': _server, ...others } = meta;
  return Object.keys(others).length > 0 ? { ...rest, _meta: others } : rest;
}
