/**
 * A package README's quick start, run from the installed package as a user would paste it: the
 * first ```ts block under a "Quick start" / "Quick example" heading (else the README's first ```ts
 * block), with its `npx` servers swapped for the same official servers from node_modules (no
 * network at test time), compiled to JavaScript with the workspace's TypeScript (types stripped,
 * nothing checked) and run with the install's Node in the install's folder, so that every import
 * resolves from what npm installed.
 *
 * The package's own README test checks what the snippet prints against its comments; here the
 * question is whether it runs from the tarball: it ends with exit code 0 having printed at least
 * one line per `console.log` in its text, or — a quick start that serves — it prints an
 * `http://127.0.0.1:…` address that answers: `tools/list` with tools at an MCP endpoint, 200 for a page.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { serverScript } from '@switchboard/test-helpers';
import ts from 'typescript';
import type { InstalledProject } from './install-project.js';
import { killGroup } from './run-command.js';

/** A quick start found in a README. */
export interface QuickStart {
  /** The heading it was found under, or undefined for the README's first block. */
  heading: string | undefined;
  source: string;
}

/** The quick start of a README's text; undefined when it has no ```ts block. */
export function findQuickStart(readme: string): QuickStart | undefined {
  const heading = /^#{2,3} Quick (start|example)\b.*$/im.exec(readme);
  const from = heading ? heading.index + heading[0].length : 0;
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(from));
  if (block) return { heading: heading?.[0], source: block[1] as string };
  const first = /```ts\n([\s\S]*?)```/.exec(readme);
  return first ? { heading: undefined, source: first[1] as string } : undefined;
}

/** `command: 'npx', args: ['-y', '@modelcontextprotocol/server-x', …]` → the same server from node_modules on `node`. */
export function localServers(source: string, node: string): string {
  return source.replace(
    /command: 'npx',\s*args: \['-y',\s*'@modelcontextprotocol\/(server-everything|server-filesystem|server-memory)'(,\s*)?/g,
    (
      _match,
      server: 'server-everything' | 'server-filesystem' | 'server-memory',
      comma: string | undefined,
    ) => {
      const args = [
        JSON.stringify(serverScript(server)),
        ...(server === 'server-everything' ? ["'stdio'"] : []),
      ];
      return `command: ${JSON.stringify(node)}, args: [${args.join(', ')}${comma ? ', ' : ''}`;
    },
  );
}

/**
 * `port: 8080` → `port: 0`: the same README runs on each Node side by side, and a fixed port would
 * let only the first one listen (and fail on any machine where that port is taken). The snippet
 * prints the address it got, which is what the probe reads.
 */
export function anyFreePort(source: string): string {
  return source.replace(/\bport: \d+/g, 'port: 0');
}

/** How a quick start ran. */
export interface QuickStartRun {
  /** Exit code; undefined when it was still serving (and was stopped after the probe). */
  exitCode: number | null | undefined;
  stdout: string;
  stderr: string;
  /** Lines printed to stdout. */
  lines: string[];
  /** `console.log(` in the snippet's text. */
  logCalls: number;
  /** The address it served and how it answered there. */
  served: ServedAnswer | undefined;
  timedOut: boolean;
}

/**
 * How a served address answered: an MCP endpoint (a path ending in `/mcp`) is asked `tools/list`
 * and answers with tools; any other address (a page) is fetched and answers 200.
 */
export interface ServedAnswer {
  url: string;
  /** The HTTP status of the request. */
  status: number;
  /** For an MCP endpoint: the names `tools/list` gave. */
  toolNames: string[] | undefined;
}

async function askServed(url: string): Promise<ServedAnswer> {
  if (!/\/mcp\/?$/.test(new URL(url).pathname)) {
    const response = await fetch(url);
    await response.arrayBuffer();
    return { url, status: response.status, toolNames: undefined };
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const message = parseJsonRpcAnswer(await response.text()) as {
    result?: { tools?: Array<{ name: string }> };
  };
  return { url, status: response.status, toolNames: (message.result?.tools ?? []).map((tool) => tool.name) };
}

/** A JSON-RPC answer from a body that is JSON or server-sent events (the last `data:` line). */
export function parseJsonRpcAnswer(body: string): unknown {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed);
  const data = trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((line) => line.startsWith('{'));
  if (data.length === 0) throw new Error(`not a JSON-RPC answer: ${trimmed.slice(0, 300)}`);
  return JSON.parse(data.at(-1) as string);
}

/** Runs `quickStart` in `project` (its `HOME` a folder of its own); stops it after 120 s. */
export async function runQuickStart(
  project: InstalledProject,
  quickStart: QuickStart,
  home: string,
): Promise<QuickStartRun> {
  const source = anyFreePort(localServers(quickStart.source, project.runtime.node));
  const javascript = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(project.root, 'readme-quick-start.mjs');
  writeFileSync(file, javascript);
  const logCalls = source.match(/console\.log\(/g)?.length ?? 0;
  const child = spawn(project.runtime.node, [file], {
    cwd: project.root,
    env: { ...project.runtime.env, HOME: home },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (run: Omit<QuickStartRun, 'stdout' | 'stderr' | 'lines' | 'logCalls'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child.pid);
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      resolve({ ...run, stdout, stderr, lines, logCalls });
    };
    const timer = setTimeout(
      () => finish({ exitCode: undefined, served: undefined, timedOut: true }),
      120_000,
    );
    // The exit code, once the process has closed (a quick start may print an address and close).
    const closed = new Promise<number | null>((resolveClosed) => child.on('close', resolveClosed));
    let probing = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stdout)?.[1];
      if (!url || probing || settled) return;
      probing = true;
      askServed(url).then(
        (served) => finish({ exitCode: undefined, served, timedOut: false }),
        async (error: Error) => {
          // Refused: it served and closed again (the snippet ends), or it is broken. Its exit says which.
          const exitCode = await Promise.race([closed, delay(10_000).then(() => 'running' as const)]);
          if (exitCode !== 'running') return finish({ exitCode, served: undefined, timedOut: false });
          stderr += `\nasking ${url} failed: ${error.message}`;
          finish({ exitCode: undefined, served: { url, status: 0, toolNames: undefined }, timedOut: false });
        },
      );
    });
    child.on('close', (code) => finish({ exitCode: code, served: undefined, timedOut: false }));
  });
}

/** The README of an installed package, or undefined when the tarball has none. */
export function installedReadme(packageDir: string): string | undefined {
  try {
    return readFileSync(join(packageDir, 'README.md'), 'utf8');
  } catch {
    return undefined;
  }
}
