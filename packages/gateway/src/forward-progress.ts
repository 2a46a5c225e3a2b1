/**
 * An upstream's progress notifications during a gateway tool call, sent on the downstream call's
 * stream through its tool context: with the downstream's own progress token, on the retry's stream
 * once a 2026-07-28 call resumed, and only while values increase (the context drops the others).
 */
import type { Logger } from '@switchboard/core';
import type { ToolContext } from '@switchboard/server';
import type { RelayedTool } from './forward-client-requests.js';

/** One progress update as the upstream sent it. */
export interface UpstreamProgress {
  progress: number;
  // As the SDK's Progress types them (a field may be present and undefined).
  total?: number | undefined;
  message?: string | undefined;
}

/** The progress handler of one relayed call. */
export function forwardProgress(
  context: ToolContext,
  relayed: RelayedTool,
  logger: Logger,
): (update: UpstreamProgress) => void {
  return (update) => {
    context.progress(update.progress, update.total, update.message).catch((error: unknown) => {
      // The downstream stream went away between the upstream's notification and now.
      logger.debug(
        {
          server: relayed.server,
          tool: relayed.tool,
          error: error instanceof Error ? error.message : String(error),
        },
        'gateway: relaying upstream progress failed',
      );
    });
  };
}
