import { SwitchboardError } from '@switchboard/core';

// In a file of its own so that the runner (and `--help`) can name exit codes without loading core.
export { ExitCode } from './exit-code.js';

/** A mistake in how the command was called: printed with the command's usage, exit code 2. */
export class UsageError extends SwitchboardError {
  constructor(message: string, context: Record<string, unknown> = {}) {
    super({ code: 'CLI_USAGE', message, context });
    this.name = 'UsageError';
  }
}
