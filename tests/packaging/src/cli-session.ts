/**
 * The `switchboard` command as a user meets it after `npm i -g`: the bin npm linked into the
 * prefix's `bin` (first on PATH), a `HOME` of its own, and a config with one official server
 * (server-everything from node_modules, started with `node <path>`). `serve --http` is started and
 * spoken to over HTTP like an MCP client would: `initialize`, then `tools/call`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverScript } from '@switchboard/test-helpers';
import type { InstalledProject } from './install-project.js';
import { parseJsonRpcAnswer } from './readme-quick-start.js';
import { type CommandResult, killGroup, runCommand } from './run-command.js';

/** A place to run the installed `switchboard` from. */
export interface CliSession {
  /** The `switchboard` executable npm linked. */
  bin: string;
  /** The config with server `everything`. */
  config: string;
  env: NodeJS.ProcessEnv;
  /** Runs `switchboard …args` to its end. */
  run(args: readonly string[], timeoutMs?: number): Promise<CommandResult>;
}

/** Makes a home folder and a config in `dir` for the global install `project`, whose bin is `binName`. */
export function createCliSession(project: InstalledProject, binName: string, dir: string): CliSession {
  if (!project.binDir) throw new Error(`${project.target} was not installed globally: it has no bin folder`);
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    `${JSON.stringify(
      {
        mcpServers: {
          everything: { command: project.runtime.node, args: [serverScript('server-everything'), 'stdio'] },
        },
      },
      null,
      2,
    )}\n`,
  );
  const env = {
    ...project.runtime.env,
    HOME: home,
    PATH: `${project.binDir}:${project.runtime.env.PATH ?? ''}`,
  };
  const bin = join(project.binDir, binName);
  return {
    bin,
    config,
    env,
    run: (args, timeoutMs = 120_000) => runCommand(bin, args, { cwd: dir, env, timeoutMs }),
  };
}

/** What talking to `switchboard serve --http` gave. */
export interface ServedSession {
  /** The line it printed with its address. */
  banner: string;
  url: string;
  /** The answers to `initialize` and `tools/call`. */
  initialize: unknown;
  toolCall: unknown;
}

/** Starts `switchboard serve --http --port 0`, sends `initialize` and `tools/call {tool, args}`, stops it. */
export async function talkToServe(
  session: CliSession,
  tool: string,
  args: Record<string, unknown>,
): Promise<ServedSession> {
  const child = spawn(session.bin, ['serve', '--http', '--port', '0', '--config', session.config], {
    env: session.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`serve printed no address within 60 s:\n${output}`)),
        60_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((text) => /http:\/\/127\.0\.0\.1:\d+\S*/.test(text));
        if (line) {
          clearTimeout(timer);
          resolve(line.trim());
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code} before printing its address:\n${output}`));
      });
    });
    const url = (/http:\/\/127\.0\.0\.1:\d+\S*/.exec(banner) as RegExpExecArray)[0];
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
      return { response, answer: parseJsonRpcAnswer(await response.text()) };
    };
    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'packaging-suite', version: '1.0.0' },
      },
    });
    const sessionId = initialized.response.headers.get('mcp-session-id');
    const called = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } },
      { 'mcp-protocol-version': '2025-11-25', ...(sessionId ? { 'mcp-session-id': sessionId } : {}) },
    );
    return { banner, url, initialize: initialized.answer, toolCall: called.answer };
  } finally {
    killGroup(child.pid);
  }
}
