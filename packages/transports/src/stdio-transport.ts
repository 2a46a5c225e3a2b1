/**
 * The stdio client transport: spawns an MCP server and exchanges newline-delimited JSON-RPC over its
 * stdin and stdout. Around that it keeps the server in its own process group, ended by a watchdog if
 * this process dies; keeps the tail of its stderr for error messages; shuts it down in steps (stdin
 * closed, SIGTERM, SIGKILL). It knows nothing of the protocol beyond the framing: what a server
 * that exits on a request means is the client's business. Node-only: reached through the `./stdio` subpath, or loaded by `createTransport` when it starts.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { type Logger, silentLogger } from '@switchboard/core';
import { createServerEnvironment } from './default-environment.js';
import { excerpt, parseJsonRpcMessages } from './json-rpc-message.js';
import { LineTailBuffer } from './line-tail-buffer.js';
import { type ProcessGroupWatchdog, startProcessGroupWatchdog } from './process-group-watchdog.js';
import { resolveSpawnCommand } from './spawn-command.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

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
  error?: TransportError;
}

/** A stdio transport: the SDK `Transport` plus access to the server process. */
export interface StdioTransport extends Transport {
  /** The server's pid (undefined before start or when spawning failed). */
  readonly pid: number | undefined;
  /** The server's exit code once it exited (null while running or when ended by a signal). */
  readonly exitCode: number | null;
  /** The last lines the server wrote to stderr. */
  stderrTail(): string;
  /**
   * The running server's stderr (already read into `stderrTail()` and the logger). Its presence
   * with `pid` is how the SDK's version negotiation recognises a stdio transport.
   */
  readonly stderr: Readable | null;
  /** Called once when the server process exits, expectedly or not (e.g. to decide on a respawn). */
  onexit?: ((info: StdioExitInfo) => void) | undefined;
}

/**
 * Creates a transport that spawns an MCP server (once) and talks JSON-RPC over its stdin/stdout,
 * in either era.
 */
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

/** One started server process and what is read from it. */
interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  watchdog: ProcessGroupWatchdog | undefined;
  stdoutBuffer: string;
  stderrBuffer: string;
  exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  exited: Promise<void>;
  markExited: () => void;
}

class ChildProcessTransport implements StdioTransport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  onexit?: ((info: StdioExitInfo) => void) | undefined;
  sessionId?: string | undefined;

  private server: ServerProcess | undefined;
  private readonly tail: LineTailBuffer;
  private readonly logger: Logger;
  private readonly name: string;
  private started = false;
  private closing = false;
  private closed = false;
  private exitError: TransportError | undefined;

  constructor(private readonly options: StdioTransportOptions) {
    this.logger = options.logger ?? silentLogger;
    this.name = options.name ?? options.command;
    this.tail = new LineTailBuffer({
      maxLines: options.stderrTailLines ?? 50,
      maxCharacters: options.stderrTailCharacters ?? 8192,
    });
  }

  get pid(): number | undefined {
    return this.server?.child.pid;
  }

  get exitCode(): number | null {
    return this.server?.exitInfo?.code ?? null;
  }

  get stderr(): Readable | null {
    return this.server?.child.stderr ?? null;
  }

  stderrTail(): string {
    return this.tail.toString();
  }

  start(): Promise<void> {
    if (this.started || this.closed) {
      return Promise.reject(
        new TransportError({
          code: TransportErrorCode.TransportError,
          message: `The stdio transport of MCP server "${this.name}" was already started; a transport is started once (Client.connect() starts it).`,
          context: { server: this.name },
        }),
      );
    }
    this.started = true;
    return this.spawnServer().catch((error: unknown) => {
      this.closed = true;
      throw error;
    });
  }

  /** Spawns the server in its own process group (guarded by the watchdog) and wires its pipes. */
  private spawnServer(): Promise<void> {
    const { command, args = [], cwd } = this.options;
    const killTimeoutMs = this.options.killTimeoutMs ?? 5000;
    const resolved = resolveSpawnCommand(command, args);
    let watchdog: ProcessGroupWatchdog | undefined;
    if (!isWindows && this.options.watchdog !== false) {
      watchdog = startProcessGroupWatchdog(killTimeoutMs);
      if (watchdog.pid === undefined) {
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
        watchdog?.release();
        reject(this.spawnError(error));
        return;
      }
      // Synchronously after the fork: no window in which our death would leave it unguarded.
      if (child.pid !== undefined) watchdog?.guard(child.pid);
      let markExited: () => void = () => {};
      const server: ServerProcess = {
        child,
        watchdog,
        stdoutBuffer: '',
        stderrBuffer: '',
        exitInfo: undefined,
        exited: new Promise<void>((done) => {
          markExited = done;
        }),
        markExited: () => markExited(),
      };
      this.server = server;
      let spawned = false;

      child.once('spawn', () => {
        spawned = true;
        this.logger.debug({ server: this.name, pid: child.pid }, 'MCP server process started');
        resolve();
      });
      child.on('error', (error) => {
        if (!spawned) {
          watchdog?.release();
          reject(this.spawnError(error));
          return;
        }
        this.onerror?.(
          new TransportError({
            code: TransportErrorCode.TransportError,
            message: `MCP server "${this.name}" process error: ${error.message}`,
            context: { server: this.name, command },
            cause: error,
          }),
        );
      });

      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => this.readStdout(server, chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => this.readStderr(server, chunk));
      // EPIPE when the server died mid-write: the exit handler reports it better.
      child.stdin.on('error', (error) =>
        this.logger.debug({ server: this.name, error: error.message }, 'stdin error'),
      );
      child.stdout.on('error', () => {});
      child.stderr.on('error', () => {});

      child.once('exit', (code, signal) => {
        if (!spawned) return;
        server.exitInfo = { code, signal };
        // Give stdout/stderr a moment to drain; a grandchild holding them open must not stall us.
        let finished = false;
        const finish = () => {
          if (finished) return;
          finished = true;
          this.handleExit(server, code, signal);
        };
        child.once('close', finish);
        setTimeout(finish, 100).unref();
      });
    });
  }

  private spawnError(error: unknown): TransportError {
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
    return new TransportError({
      code: TransportErrorCode.SpawnFailed,
      message: `Could not start MCP server "${this.name}": ${advice}`,
      context: { server: this.name, command, args: this.options.args ?? [], cwd, errno: code },
      cause: error,
    });
  }

  private readStdout(server: ServerProcess, chunk: string): void {
    let text = server.stdoutBuffer + chunk;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line = text.charCodeAt(newline - 1) === 13 ? text.slice(0, newline - 1) : text.slice(0, newline);
      text = text.slice(newline + 1);
      if (line.length > 0) this.handleLine(line);
      newline = text.indexOf('\n');
    }
    server.stdoutBuffer = text;
  }

  private handleLine(line: string): void {
    const messages = parseJsonRpcMessages(line);
    if (messages === undefined) {
      this.onerror?.(
        new TransportError({
          code: TransportErrorCode.TransportError,
          message: `MCP server "${this.name}" wrote a line to stdout that is not a JSON-RPC message: ${JSON.stringify(excerpt(line))}. A stdio server must write only protocol messages to stdout (logs go to stderr); the line was ignored.`,
          context: { server: this.name, line: excerpt(line) },
        }),
      );
      return;
    }
    for (const message of messages) this.onmessage?.(message);
  }

  private readStderr(server: ServerProcess, chunk: string): void {
    const lines = (server.stderrBuffer + chunk).split(/\r?\n/);
    server.stderrBuffer = lines.pop() ?? '';
    for (const line of lines) this.recordStderrLine(line);
  }

  private recordStderrLine(line: string): void {
    this.tail.push(line);
    this.logger.debug({ server: this.name, stream: 'stderr' }, line);
  }

  private handleExit(server: ServerProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (server.stderrBuffer) {
      this.recordStderrLine(server.stderrBuffer);
      server.stderrBuffer = '';
    }
    // Whatever the leader left behind in its group (grandchildren) goes too.
    server.watchdog?.release();
    server.markExited();
    const expected = this.closing;
    if (!expected) {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const stderr = this.tail.toString();
      this.exitError = new TransportError({
        code: TransportErrorCode.ServerExited,
        message: `MCP server "${this.name}" (${this.options.command}) ${how}.${stderr ? ` Last stderr lines:\n${stderr}` : ' It wrote nothing to stderr.'}`,
        context: { server: this.name, command: this.options.command, exitCode: code, signal },
      });
      // Reported through onerror and onexit: whoever uses the transport says what it means.
      this.logger.info(
        { server: this.name, exitCode: code, signal },
        'MCP server process exited unexpectedly',
      );
      this.onerror?.(this.exitError);
    } else {
      this.logger.debug({ server: this.name, exitCode: code, signal }, 'MCP server process exited');
    }
    this.onexit?.({ code, signal, expected, ...(this.exitError ? { error: this.exitError } : {}) });
    this.finishClose();
  }

  private finishClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const server = this.server;
    if (!server || server.exitInfo || this.closing) {
      return Promise.reject(
        this.exitError ??
          new TransportError({
            code: TransportErrorCode.NotConnected,
            message: `Cannot send to MCP server "${this.name}": its stdio transport is ${server ? 'closed' : 'not started'}.`,
            context: { server: this.name },
          }),
      );
    }
    if (server.child.stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => server.child.stdin.once('drain', resolve));
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server || server.exitInfo) {
      // An exit still being finalised is now an expected one: no SERVER_EXITED after close().
      this.closing = true;
      server?.watchdog?.release();
      this.finishClose();
      return;
    }
    if (this.closing) {
      await server.exited;
      return;
    }
    this.closing = true;
    // The polite way first: a stdio server is expected to exit when its input ends.
    server.child.stdin.end();
    if (await waitFor(server.exited, this.options.stdinCloseTimeoutMs ?? 2000)) return;
    this.killGroup(server.child, 'SIGTERM');
    if (await waitFor(server.exited, this.options.killTimeoutMs ?? 5000)) return;
    this.killGroup(server.child, 'SIGKILL');
    await waitFor(server.exited, 2000);
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
