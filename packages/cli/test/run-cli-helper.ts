/** Runs the real CLI commands in-process against real servers, capturing output. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commands, runCli } from '../src/index.js';

/** What one CLI run produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temp home + project folder; `run` executes `switchboard …` with them. */
export function createSandbox() {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    SWITCHBOARD_HOME: home,
    NO_COLOR: '1',
    SWITCHBOARD_LOG: 'silent',
  };
  return {
    root,
    home,
    cwd,
    env,
    writeConfig(path: string, servers: Record<string, unknown>) {
      writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
    },
    async run(
      argv: string[],
      options: {
        confirm?: (question: string) => Promise<boolean>;
        /** Variables to set (or, `undefined`, unset) for this run only. */
        env?: Record<string, string | undefined>;
        /** Whether stderr claims to be a terminal (colour, spinners). */
        stderrIsTTY?: boolean;
      } = {},
    ): Promise<CliRun> {
      let stdout = '';
      let stderr = '';
      const code = await runCli(
        argv,
        {
          stdout: { write: (text: string) => (stdout += text) },
          stderr: {
            write: (text: string) => (stderr += text),
            ...(options.stderrIsTTY ? { isTTY: true } : {}),
          },
          env: options.env ? { ...env, ...options.env } : env,
          cwd,
          ...(options.confirm ? { confirm: options.confirm } : {}),
        },
        commands,
      );
      return { code, stdout, stderr };
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
