/** `switchboard select "<query>"`: the tools tool selection would pick, with scores and token saving. */
import type { CommandSpec } from '../cli-command.js';

const help = `Usage:
  switchboard select "<query>" [-k 8] [--signals hybrid|dense|lexical]

Connects the configured servers, indexes their tools (offline embeddings + BM25) and prints the k
tools that best match the query: score, the signals that put each there, and the tokens saved by
sending only these tool definitions to a model.`;

/** The `select` command's spec; `runSelectCommand` in select-command.ts runs it. */
export const selectCommandSpec: CommandSpec = {
  name: 'select',
  summary: 'rank the tools relevant to a query (scores, signals, token saving)',
  help,
  options: {
    k: { type: 'string', short: 'k' },
    signals: { type: 'string' },
  },
  optionValues: { signals: ['hybrid', 'dense', 'lexical'] },
};
