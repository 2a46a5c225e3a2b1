import type { CliCommand } from '../cli-command.js';
import { authCommand } from './auth-command.js';
import { callCommand } from './call-command.js';
import { deployCommand } from './deploy-command.js';
import { doctorCommand } from './doctor-command.js';
import { inspectCommand } from './inspect-command.js';
import { selectCommand } from './select-command.js';
import { serveCommand } from './serve-command.js';
import { serversCommand } from './servers-command.js';
import { statsCommand } from './stats-command.js';
import { toolsCommand } from './tools-command.js';

/** Every `switchboard` command, in the order `--help` lists them. */
export const commands: CliCommand[] = [
  serversCommand,
  toolsCommand,
  callCommand,
  selectCommand,
  serveCommand,
  deployCommand,
  doctorCommand,
  inspectCommand,
  authCommand,
  statsCommand,
];
