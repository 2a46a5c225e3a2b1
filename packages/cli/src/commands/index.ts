/**
 * The command table: every command's spec, and a loader for the module that runs it. `--help`, a
 * command's own `--help` and shell completion read only the specs; running a command imports its
 * module alone, so `switchboard tools` never loads the server, the embedder or another command.
 */
import type { CliCommand } from '../cli-command.js';
import { createLazyCommand } from '../lazy-command.js';
import { authCommandSpec } from './auth-command-spec.js';
import { callCommandSpec } from './call-command-spec.js';
import { completionCommandSpec } from './completion-command-spec.js';
import { deployCommandSpec } from './deploy-command-spec.js';
import { doctorCommandSpec } from './doctor-command-spec.js';
import { inspectCommandSpec } from './inspect-command-spec.js';
import { selectCommandSpec } from './select-command-spec.js';
import { serveCommandSpec } from './serve-command-spec.js';
import { serversCommandSpec } from './servers-command-spec.js';
import { statsCommandSpec } from './stats-command-spec.js';
import { toolsCommandSpec } from './tools-command-spec.js';
import { uiCommandSpec } from './ui-command-spec.js';

/** Every `switchboard` command, in the order `--help` lists them. */
export const commands: CliCommand[] = [
  createLazyCommand(serversCommandSpec, async () => (await import('./servers-command.js')).runServersCommand),
  createLazyCommand(toolsCommandSpec, async () => (await import('./tools-command.js')).runToolsCommand),
  createLazyCommand(callCommandSpec, async () => (await import('./call-command.js')).runCallCommand),
  createLazyCommand(selectCommandSpec, async () => (await import('./select-command.js')).runSelectCommand),
  createLazyCommand(serveCommandSpec, async () => (await import('./serve-command.js')).runServeCommand),
  createLazyCommand(deployCommandSpec, async () => (await import('./deploy-command.js')).runDeployCommand),
  createLazyCommand(doctorCommandSpec, async () => (await import('./doctor-command.js')).runDoctorCommand),
  createLazyCommand(inspectCommandSpec, async () => (await import('./inspect-command.js')).runInspectCommand),
  createLazyCommand(authCommandSpec, async () => (await import('./auth-command.js')).runAuthCommand),
  createLazyCommand(statsCommandSpec, async () => (await import('./stats-command.js')).runStatsCommand),
  createLazyCommand(uiCommandSpec, async () => (await import('./ui-command.js')).runUiCommand),
  createLazyCommand(
    completionCommandSpec,
    async () => (await import('./completion-command.js')).runCompletionCommand,
  ),
];
