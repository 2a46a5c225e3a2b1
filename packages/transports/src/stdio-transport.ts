import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Logger, SwitchboardError, silentLogger } from '@switchboard/core';
import { createServerEnvironment } from './default-environment.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import { LineTailBuffer } from './line-tail-buffer.js';
import { type ProcessGroupWatchdog, startProcessGroupWatchdog } from './process-group-watchdog.js';
import { resolveSpawnCommand } from './spawn-command.js';

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions {
  /** The executable to start (`node`, `npx`, `uvx`, an absolute path...). */
  command: string;
  /** Its arguments. @default [] */
  args?: string[];
  /** Variables added onto the default environment (not a replacement). Never logged. */
  env?: Record<string, string>;
  /**
   * Which of this process's variables the server inherits: `'safe'` (PATH, HOME, locale, proxies)
   * or `'all'`. @default 'safe'
   */
  inheritEnv?: 'safe' | 'all';
  /** Working directory of the server. @default the current directory */
  cwd?: string;
  /** Server name used in logs and errors. @default the command */
  name?: string;
  /** Receives the server's stderr lines (debug) and lifecycle events. @default silentLogger */
  logger?: Logger;
  /** How long `close()` waits for the server to exit after closing its stdin, before SIGTERM. @default 2000 */
  stdinCloseTimeoutMs?: number;
  /** How long after SIGTERM the process group gets SIGKILL. @default 5000 */
  killTimeoutMs?: number;
  /** Kill the server's process group even when this process is SIGKILLed (POSIX). @default true */
  watchdog?: boolean;
  /** Most stderr lines kept for error messages. @default 50 */
  stderrTailLines?: number;
  /** Most stderr characters kept for error messages. @default 8192 */
  stderrTailCharacters?: number;
}

/** How a stdio server process ended. */
export interface StdioExitInfo {
  /** Exit code, or null when ended by a signal. */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: NodeJS.Signals | null;
  /** True when the exit followed `close()`; false when the server died on its own. */
  expected: boolean;
  /** The error describing an unexpected exit (with the stderr tail). */
  error?: SwitchboardError;
}

/** A stdio transport: the SDK `Transport` plus access to the server process. */
export interface StdioTransport extends Transport {
  /** The server's pid (undefined before start or when spawning failed). */
  readonly pid: number | undefined;
  /** The server's exit code once it exited (null while running or when ended by a signal). */
  readonly exitCode: number | null;
  /** The last lines the server wrote to stderr. */
  stderrTail(): string;
  /** Called once when the server process exits, expectedly or not (e.g. to decide on a respawn). */
  onexit?: ((info: StdioExitInfo) => void) | undefined;
}

/** Creates a transport that spawns an MCP server and talks JSON-RPC over its stdin/stdout. */
export function createStdioTransport(options: StdioTransportOptions): StdioTransport {
  return new ChildProcessTransport(options);
}

const isWindows = process.platform === 'win32';

/** Resolves after `ms`, or earlier when `done` settles. */
function waitFor(done: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

class ChildProcessTransport implements StdioTransport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  onexit?: ((info: StdioExitInfo) => void) | undefined;
  sessionId?: string | undefined;

  private child: ChildProcessWithoutNullStreams | undefined;
  private watchdog: ProcessGroupWatchdog | undefined;
  private readonly tail: LineTailBuffer;
  private readonly logger: Logger;
  private readonly name: string;
  private stdoutBuffer = '';
  private stderrBuffer = '';
  private closing = false;
  private closed = false;
  private exitError: SwitchboardError | undefined;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private resolveExited: () => void = () => {};
  private readonly exited = new Promise<void>((resolve) => {
    this.resolveExited = resolve;
  });

  constructor(private readonly options: StdioTransportOptions) {
    this.logger = options.logger ?? silentLogger;
    this.name = options.name ?? options.command;
    this.tail = new LineTailBuffer({
      maxLines: options.stderrTailLines ?? 50,
      maxCharacters: options.stderrTailCharacters ?? 8192,
    });
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exitCode(): number | null {
    return this.exitInfo?.code ?? null;
  }

  stderrTail(): string {
    return this.tail.toString();
  }

  start(): Promise<void> {
    if (this.child || this.closed) {
      return Promise.reject(
        new SwitchboardError({
          code: 'TRANSPORT_ERROR',
          message: `The stdio transport of MCP server "${this.name}" was already started; a transport is started once (Client.connect() starts it).`,
          context: { server: this.name },
        }),
      );
    }
    const { command, args = [], cwd } = this.options;
    const killTimeoutMs = this.options.killTimeoutMs ?? 5000;
    const resolved = resolveSpawnCommand(command, args);
    const useWatchdog = !isWindows && this.options.watchdog !== false;
    if (useWatchdog) {
      this.watchdog = startProcessGroupWatchdog(killTimeoutMs);
      if (this.watchdog.pid === undefined) {
        this.logger.warn(
          { server: this.name },
          'could not start the /bin/sh watchdog: the server may outlive this process if it is killed',
        );
      }
    }

    return new Promise<void>((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(resolved.file, resolved.args, {
          env: createServerEnvironment(this.options.env, this.options.inheritEnv),
          cwd,
          stdio: ['pipe', 'pipe', 'pipe'],
          // Its own process group, so shutdown reaches every process the server started (npx → node → ...).
          detached: !isWindows,
          windowsHide: true,
          windowsVerbatimArguments: resolved.windowsVerbatimArguments,
        });
      } catch (error) {
        this.watchdog?.release();
        reject(this.spawnError(error));
        return;
      }
      // Synchronously after the fork: no window in which our death would leave it unguarded.
      if (child.pid !== undefined) this.watchdog?.guard(child.pid);
      this.child = child;
      let spawned = false;

      child.once('spawn', () => {
        spawned = true;
        this.logger.debug({ server: this.name, pid: child.pid }, 'MCP server process started');
        resolve();
      });
      child.on('error', (error) => {
        if (!spawned) {
          this.watchdog?.release();
          this.closed = true;
          reject(this.spawnError(error));
          return;
        }
        this.onerror?.(
          new SwitchboardError({
            code: 'TRANSPORT_ERROR',
            message: `MCP server "${this.name}" process error: ${error.message}`,
            context: { server: this.name, command },
            cause: error,
          }),
        );
      });

      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => this.readStdout(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => this.readStderr(chunk));
      // EPIPE when the server died mid-write: the exit handler reports it better.
      child.stdin.on('error', (error) =>
        this.logger.debug({ server: this.name, error: error.message }, 'stdin error'),
      );
      child.stdout.on('error', () => {});
      child.stderr.on('error', () => {});

      child.once('exit', (code, signal) => {
        if (!spawned) return;
        this.exitInfo = { code, signal };
        // Give stdout/stderr a moment to drain; a grandchild holding them open must not stall us.
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          this.handleExit(code, signal);
        };
        child.once('close', finish);
        setTimeout(finish, 100).unref();
      });
    });
  }

  private spawnError(error: unknown): SwitchboardError {
    const { command, cwd } = this.options;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    let advice: string;
    if (code === 'ENOENT' && cwd !== undefined && !existsSync(cwd)) {
      advice = `its working directory "${cwd}" does not exist. Fix "cwd" in the server's configuration.`;
    } else if (code === 'ENOENT') {
      advice = `command "${command}" was not found. Check that it is installed and on PATH, or give an absolute path.`;
    } else if (code === 'EACCES') {
      advice = `command "${command}" is not executable (EACCES). Check its file permissions.`;
    } else {
      advice = `spawning "${command}" failed: ${(error as Error | undefined)?.message ?? String(error)}.`;
    }
    return new SwitchboardError({
      code: 'SPAWN_FAILED',
      message: `Could not start MCP server "${this.name}": ${advice}`,
      context: { server: this.name, command, args: this.options.args ?? [], cwd, errno: code },
      cause: error,
    });
  }

  private readStdout(chunk: string): void {
    let text = this.stdoutBuffer + chunk;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line = text.charCodeAt(newline - 1) === 13 ? text.slice(0, newline - 1) : text.slice(0, newline);
      text = text.slice(newline + 1);
      if (line.length > 0) this.handleLine(line);
      newline = text.indexOf('\n');
    }
    this.stdoutBuffer = text;
  }

  private handleLine(line: string): void {
    const messages = parseJsonRpcMessages(line);
    if (messages === undefined) {
      this.onerror?.(
        new SwitchboardError({
          code: 'TRANSPORT_ERROR',
          message: `MCP server "${this.name}" wrote a line to stdout that is not a JSON-RPC message: ${JSON.stringify(excerpt(line))}. A stdio server must write only protocol messages to stdout (logs go to stderr); the line was ignored.`,
          context: { server: this.name, line: excerpt(line) },
        }),
      );
      return;
    }
    for (const message of messages) this.onmessage?.(message);
  }

  private readStderr(chunk: string): void {
    const lines = (this.stderrBuffer + chunk).split(/\r?\n/);
    this.stderrBuffer = lines.pop() ?? '';
    for (const line of lines) this.recordStderrLine(line);
  }

  private recordStderrLine(line: string): void {
    this.tail.push(line);
    this.logger.debug({ server: this.name, stream: 'stderr' }, line);
  }

  private handleExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stderrBuffer) {
      this.recordStderrLine(this.stderrBuffer);
      this.stderrBuffer = '';
    }
    // Whatever the leader left behind in its group (grandchildren) goes too.
    this.watchdog?.release();
    const expected = this.closing;
    if (!expected) {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const stderr = this.tail.toString();
      this.exitError = new SwitchboardError({
        code: 'SERVER_EXITED',
        message: `MCP server "${this.name}" (${this.options.command}) ${how}.${stderr ? ` Last stderr lines:\n${stderr}` : ' It wrote nothing to stderr.'}`,
        context: { server: this.name, command: this.options.command, exitCode: code, signal },
      });
      this.logger.warn(
        { server: this.name, exitCode: code, signal },
        'MCP server process exited unexpectedly',
      );
      this.onerror?.(this.exitError);
    } else {
      this.logger.debug({ server: this.name, exitCode: code, signal }, 'MCP server process exited');
    }
    this.resolveExited();
    this.onexit?.({ code, signal, expected, ...(this.exitError ? { error: this.exitError } : {}) });
    this.finishClose();
  }

  private finishClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.exitInfo || this.closing) {
      return Promise.reject(
        this.exitError ??
          new SwitchboardError({
            code: 'NOT_CONNECTED',
            message: `Cannot send to MCP server "${this.name}": its stdio transport is ${child ? 'closed' : 'not started'}.`,
            context: { server: this.name },
          }),
      );
    }
    if (child.stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => child.stdin.once('drain', resolve));
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exitInfo) {
      // An exit still being finalised is now an expected one: no SERVER_EXITED after close().
      this.closing = true;
      this.watchdog?.release();
      this.finishClose();
      return;
    }
    if (this.closing) {
      await this.exited;
      return;
    }
    this.closing = true;
    // The polite way first: a stdio server is expected to exit when its input ends.
    child.stdin.end();
    if (await waitFor(this.exited, this.options.stdinCloseTimeoutMs ?? 2000)) return;
    this.killGroup(child, 'SIGTERM');
    if (await waitFor(this.exited, this.options.killTimeoutMs ?? 5000)) return;
    this.killGroup(child, 'SIGKILL');
    await waitFor(this.exited, 2000);
    this.finishClose();
  }

  private killGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
    const pid = child.pid;
    if (pid === undefined) return;
    this.logger.debug({ server: this.name, pid, signal }, 'signalling MCP server process group');
    if (isWindows) {
      // No process groups: taskkill /T walks the tree (cmd.exe → node → ...).
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on(
        'error',
        () => child.kill(signal),
      );
      return;
    }
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone or was never formed: signal the leader alone.
      child.kill(signal);
    }
  }
}
