/**
 * The embedder the commands that rank tools use (`select`, `doctor`, `serve --select`): the
 * configured transformers model, or — with `SWITCHBOARD_OFFLINE=1` — the offline model at once,
 * without a network attempt for the default model (which, where the hub is unreachable, can take
 * as long as the DNS resolver does before it fails).
 */
import type { Logger } from '@switchboard/core';
import { createTransformersEmbedder } from '@switchboard/tool-selection';
import type { CommandContext } from './cli-command.js';

/** The embedder of a command run. */
export function cliEmbedder(context: CommandContext, logger: Logger) {
  const offline = context.io.env.SWITCHBOARD_OFFLINE === '1';
  return createTransformersEmbedder({ logger, ...(offline ? { allowRemote: false } : {}) });
}
