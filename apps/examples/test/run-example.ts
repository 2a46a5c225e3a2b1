/** Runs an example the way its package script does — a real child process — and collects its output. */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What an example printed and how it ended. */
export interface ExampleRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** Options of {@link runExample}. */
export interface RunExampleOptions {
  /** Command-line arguments. @default [] */
  args?: string[];
  /** Variables added to the (key-free) environment. @default {} */
  env?: Record<string, string>;
  /** @default 220000 */
  timeoutMs?: number;
}

/** Runs `node --import tsx src/<name>.ts` offline (API keys removed) and resolves when it exits. */
export function runExample(name: string, options: RunExampleOptions = {}): Promise<ExampleRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  Object.assign(env, options.env);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join('src', `${name}.ts`), ...(options.args ?? [])],
      {
        cwd: appDirectory,
        env,
        timeout: options.timeoutMs ?? 220_000,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ stdout, stderr, exitCode });
      },
    );
  });
}
