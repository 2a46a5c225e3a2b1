/**
 * Where hosts keep their files on each platform. On Windows the per-user folders come from
 * `%APPDATA%` (roaming application data) and `%USERPROFILE%` (the home folder); on Linux from
 * `$XDG_CONFIG_HOME`; each falls back to its usual place under the given home.
 */
import { dirname, join } from 'node:path';
import type { HostLocation, HostLocationContext } from './host-format.js';

/** `%USERPROFILE%` on Windows, else the home folder: where dot-folders such as `.cursor` live. */
export function userProfile(context: HostLocationContext): string {
  return context.platform === 'win32' ? (context.env.USERPROFILE ?? context.home) : context.home;
}

/** `%APPDATA%` on Windows. */
export function appData(context: HostLocationContext): string {
  return context.env.APPDATA ?? join(userProfile(context), 'AppData', 'Roaming');
}

/** `$XDG_CONFIG_HOME` (default `~/.config`). */
export function xdgConfig(context: HostLocationContext): string {
  return context.env.XDG_CONFIG_HOME ?? join(context.home, '.config');
}

/** VS Code's user folder (`…/Code/User`): settings.json, the user mcp.json and extensions' global storage. */
export function vscodeUserDirectory(context: HostLocationContext): string {
  if (context.platform === 'darwin')
    return join(context.home, 'Library', 'Application Support', 'Code', 'User');
  if (context.platform === 'win32') return join(appData(context), 'Code', 'User');
  return join(xdgConfig(context), 'Code', 'User');
}

/** A location of kind `user` (`project` with `project: true`). */
export function location(
  path: string,
  serversPath: string[],
  context: HostLocationContext,
  kind: HostLocation['kind'] = 'user',
): HostLocation {
  return { path, kind, serversPath, workspaceFolder: context.cwd };
}

/**
 * The location of servers inside an explicitly given file. Its `${workspaceFolder}` is the folder
 * holding the file, or the one above when the file sits in a `.vscode/`, `.cursor/`, `.zed/`,
 * `.gemini/`, `.codex/` or `.continue/` folder.
 */
export function fileLocation(path: string, serversPath: string[]): HostLocation {
  const parent = dirname(path);
  const workspaceFolder = /[\\/]\.(vscode|cursor|zed|gemini|codex|continue)$/.test(parent)
    ? dirname(parent)
    : parent;
  return { path, kind: 'file', serversPath, workspaceFolder };
}
