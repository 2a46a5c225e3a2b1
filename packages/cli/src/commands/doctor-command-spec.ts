/**
 * `switchboard doctor`: what is wrong and where. Per server: spawn/connect result and time,
 * handshake, tool count, estimated tokens of its tool definitions, and the name and schema problems
 * each provider would have with its tools; then the active embedder and the config files read.
 */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard doctor [server...] [--trust] [--store FILE]

Checks every configured server (or those named): connect time, handshake, tools, estimated tokens
of the tool definitions, and the tool-name and schema problems OpenAI (strict), Anthropic and Gemini
would have after conversion, and the trust findings on each tool (hidden text, orders to the model,
shadowing, look-alike names, long descriptions). Also shows the active embedder and the config files
read, in merge order. Exit code 1 when a server fails.

  --trust        also review every tool against the pins in the registry store (first use pins
                 them), and exit 1 when a tool is quarantined or a finding reaches the blocking
                 severity: a CI gate. A clean first use of ordinary servers exits 0.
  --store FILE   the registry store --trust reads and writes (a file or a postgres:// URL)`;

/** The `doctor` command's spec; `runDoctorCommand` in doctor-command.ts runs it. */
export const doctorCommandSpec: CommandSpec = {
  name: 'doctor',
  summary: 'check servers, tool schemas per provider, the embedder and config files',
  help,
  operands: 'server',
  options: { trust: { type: 'boolean' }, store: { type: 'string' } },
  optionValues: { store: 'file' },
};
