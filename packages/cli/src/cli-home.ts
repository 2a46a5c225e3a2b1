/** The user's home the CLI reads and writes under (config, registry, sign-ins). */
import { homedir } from 'node:os';
import type { CommandContext } from './cli-command.js';

/** The user's home, overridable for tests through `SWITCHBOARD_HOME`. */
export function homeOf(context: CommandContext): string {
  return context.io.env.SWITCHBOARD_HOME ?? context.io.env.HOME ?? homedir();
}
