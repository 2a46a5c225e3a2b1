import { SwitchboardError } from '@switchboard/core';

/** Exit codes of the `switchboard` command: 0 ok, 1 failure, 2 usage error. */
export const ExitCode = { ok: 0, failure: 1, usage: 2 } as const;

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends SwitchboardError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super({ code: 'CLI_USAGE', message, context });
    this.name = 'UsageError';
  }
}
