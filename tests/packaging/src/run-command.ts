/**
 * One child process to its end, with what it printed: the suite's every step (pack, install, a
 * probe script, tsc, the `switchboard` command) is a real process, started here so that each has a
 * deadline, its own process group (killed whole at the deadline) and the tail of its output for
 * the failure message.
 */
import { spawn } from 'node:child_process';

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  cwd: string;
  /** The whole environment of the child (not added to this process's). */
  env: NodeJS.ProcessEnv;
  /** Killed (its whole process group) after this long. @default 300000 */
  timeoutMs?: number;
  /** Written to its stdin, which is then closed. @default nothing (stdin closed) */
  input?: string;
}

/** How a command ended. */
export interface CommandResult {
  /** The command line, for messages. */
  command: string;
  /** Exit code; null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The deadline passed and the process group was killed. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Wall time in seconds. */
  seconds: number;
}

/** Whether a command exited with 0 in time. */
export function succeeded(result: CommandResult): boolean {
  return result.code === 0 && !result.timedOut;
}

/** The last `max` characters of what a command printed (stdout, then stderr), for a failure message. */
export function outputTail(result: CommandResult, max = 3000): string {
  const text = `${result.stdout}\n${result.stderr}`.trim();
  return text.length > max ? `…${text.slice(-max)}` : text;
}

/** One line that says how a command ended, and the tail of its output. */
export function describeFailure(result: CommandResult): string {
  const ending = result.timedOut
    ? `did not end within its deadline (${result.seconds.toFixed(0)} s)`
    : result.signal
      ? `was killed by ${result.signal}`
      : `exited with ${result.code}`;
  return `\`${result.command}\` ${ending}:\n${outputTail(result)}`;
}

/** Runs `file args…` to its end (never rejects: a failure to start is exit code null with the error on stderr). */
export function runCommand(
  file: string,
  args: readonly string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  const command = [file, ...args].map((part) => (/\s/.test(part) ? JSON.stringify(part) : part)).join(' ');
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs ?? 300_000);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({
        command,
        code,
        signal,
        timedOut,
        stdout,
        stderr,
        seconds: (performance.now() - started) / 1000,
      });
    };
    child.on('error', (error) => {
      stderr += `\n${error.message}`;
      finish(null, null);
    });
    child.on('close', finish);
  });
}

/** SIGKILL to the process group of `pid` (every process the command started), if it is still there. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
