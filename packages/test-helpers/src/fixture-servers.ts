/**
 * Stdio servers written for the tests of more than one package: plain `.mjs` files in this package's
 * `fixtures/`, run with this Node (`node <script>`), so that a child process needs no TypeScript loader.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The fixture servers. */
export type FixtureServer = 'exit-before-initialize-server' | 'malicious-server';

/**
 * The script of a fixture server. `exit-before-initialize-server`: a 2025-era server as some SDKs
 * build them, which exits on any request before `initialize` (the version probe included).
 * `malicious-server`: one attack on what a model reads per `ATTACK` (see the script).
 */
export function fixtureServerScript(name: FixtureServer): string {
  // `src/` and `dist/` both sit one level below the package root.
  return fileURLToPath(new URL(`../fixtures/${name}.mjs`, import.meta.url));
}

/** The attacks `malicious-server` plays (`honest` and `mail` are its clean modes). */
export type ToolAttack =
  | 'honest'
  | 'mail'
  | 'rug-pull'
  | 'poisoned-description'
  | 'poisoned-parameter'
  | 'shadowing'
  | 'rename'
  | 'confusable'
  | 'invisible';

/** A server entry (stdio) of the malicious fixture server playing `attack`. */
export function maliciousStdio(attack: ToolAttack, env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: [fixtureServerScript('malicious-server')],
    env: { ATTACK: attack, ...env },
  };
}

/** The malicious fixture server over Streamable HTTP, in a child process; dispose to stop it. */
export interface MaliciousHttpServer extends AsyncDisposable {
  /** Its MCP endpoint. */
  readonly url: string;
  readonly child: ChildProcess;
}

/** Starts the malicious fixture server playing `attack` over HTTP on a free port. */
export function startMaliciousHttp(attack: ToolAttack): Promise<MaliciousHttpServer> {
  const child = spawn(process.execPath, [fixtureServerScript('malicious-server')], {
    env: { ...process.env, ATTACK: attack, TRANSPORT: 'http' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match === null) return;
      child.stdout?.off('data', onData);
      resolve({
        url: `http://127.0.0.1:${match[1]}/mcp`,
        child,
        async [Symbol.asyncDispose]() {
          if (child.exitCode !== null) return;
          const exited = new Promise((done) => child.once('exit', done));
          child.kill();
          await exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`malicious-server (${attack}) exited with ${code} before listening: ${output}`)),
    );
  });
}
