#!/usr/bin/env node
/** The `switchboard` executable: real streams and a terminal prompt around `runCli`. */
import nodeModule from 'node:module';
import { commands } from './commands/index.js';
import { runCli } from './run-cli.js';

async function confirm(question: string): Promise<boolean> {
  // Loaded when a prompt is due: most runs never ask.
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

// Node ≥ 22.1 can keep the compiled code of the modules a command loads on disk between runs (a
// command loads some 300); older versions have no such function, and the CLI runs as before.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const code = await runCli(
  process.argv.slice(2),
  {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdin.isTTY ? { confirm } : {}),
  },
  commands,
);
process.exitCode = code;
