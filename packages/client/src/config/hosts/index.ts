/** Every host module, by id: the one list `importConfig`, `exportConfig` and the CLI go through. */
import { claudeCodeHost } from './claude-code.js';
import { claudeDesktopHost } from './claude-desktop.js';
import { clineHost } from './cline.js';
import { codexHost } from './codex.js';
import { continueHost } from './continue.js';
import { cursorHost } from './cursor.js';
import { geminiCliHost } from './gemini-cli.js';
import { gooseHost } from './goose.js';
import type { HostFormat, HostId } from './host-format.js';
import { vscodeHost } from './vscode.js';
import { windsurfHost } from './windsurf.js';
import { zedHost } from './zed.js';

/** The host modules by id. */
export const hostFormats: Readonly<Record<HostId, HostFormat>> = {
  'claude-desktop': claudeDesktopHost,
  'claude-code': claudeCodeHost,
  cursor: cursorHost,
  vscode: vscodeHost,
  windsurf: windsurfHost,
  zed: zedHost,
  'gemini-cli': geminiCliHost,
  cline: clineHost,
  codex: codexHost,
  continue: continueHost,
  goose: gooseHost,
};

/** Every host id, in the order the docs list them. */
export const hostIds = Object.keys(hostFormats) as HostId[];

/** True for a known host id. */
export function isHostId(value: unknown): value is HostId {
  return typeof value === 'string' && Object.hasOwn(hostFormats, value);
}
