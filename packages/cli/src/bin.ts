#!/usr/bin/env node
/** The `switchboard` executable: real streams and a terminal prompt around `runCli`. */
import { createInterface } from 'node:readline/promises';
import { commands } from './commands/index.js';
import { runCli } from './run-cli.js';

async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

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
