/**
 * Continue: the `mcpServers:` list of `~/.continue/config.yaml` (Windows
 * `%USERPROFILE%\.continue\config.yaml`) and the block files of a workspace's
 * `.continue/mcpServers/*.yaml` (each with `name`, `version`, `schema` and its own `mcpServers:`
 * list), YAML. Each list item has a `name` (the server's name here), `type` (`stdio`, `sse`,
 * `streamable-http`), `command`, `args`, `env`, `cwd`, or `url` and `requestOptions.headers`
 * (→ `headers`; other request options are kept). `${{ secrets.VAR }}` is Continue's reference
 * (→ `${VAR}`).
 *
 * Export rule: `${VAR}` is written as `${{ secrets.VAR }}` (Continue reads secrets from its `.env`
 * files and the environment); a literal secret becomes `${{ secrets.SERVER_KEY }}` with a
 * warning naming the secret to set.
 */
import { join } from 'node:path';
import type { ServerConfig } from '../server-config.js';
import { commonEntry } from './common-entry.js';
import { createEntryExport, keptKeys } from './entry-export.js';
import { isRecord, mapEntry } from './entry-mapping.js';
import { fromContinueSecrets } from './env-references.js';
import type { HostFormat } from './host-format.js';
import { fileLocation, location, userProfile } from './host-paths.js';

const continueTypes: Record<string, string> = { stdio: 'stdio', sse: 'sse', http: 'streamable-http' };

/** Continue's format. */
export const continueHost: HostFormat = {
  id: 'continue',
  title: 'Continue',
  syntax: 'yaml',
  shape: 'list',
  locations: (context) => [
    location(join(userProfile(context), '.continue', 'config.yaml'), ['mcpServers'], context),
    {
      ...location(join(context.cwd, '.continue', 'mcpServers'), ['mcpServers'], context, 'project'),
      directoryOf: ['.yaml', '.yml'],
    },
  ],
  exportLocation: (context) =>
    location(join(userProfile(context), '.continue', 'config.yaml'), ['mcpServers'], context),
  locationsInFile: (path) => [fileLocation(path, ['mcpServers'])],
  toServerConfig(raw) {
    const mapping = mapEntry(raw);
    const entry = mapping.entry;
    delete entry.name;
    const options = entry.requestOptions;
    if (isRecord(options) && options.headers !== undefined && entry.headers === undefined) {
      const { headers, ...rest } = options;
      entry.headers = headers;
      mapping.renamed.headers = 'requestOptions';
      if (Object.keys(rest).length > 0) entry.requestOptions = rest;
      else delete entry.requestOptions;
    }
    return mapping.references(fromContinueSecrets).done();
  },
  fromServerConfig(config: ServerConfig, { name }) {
    const out = createEntryExport(continueHost, name);
    const { entry, handled } = commonEntry(config, out, {
      cwd: true,
      // Continue needs the transport of a remote server spelled out.
      type: (server) => continueTypes[server.type ?? (server.url === undefined ? '' : 'http')],
    });
    if (config.type === 'ws') out.refuse('it is a WebSocket server, which Continue does not run.');
    const { headers, ...rest } = entry;
    const kept = keptKeys(config, continueHost);
    if (headers !== undefined) {
      kept.requestOptions = { ...(isRecord(kept.requestOptions) ? kept.requestOptions : {}), headers };
    }
    out.unexported(config, handled);
    return out.result({ name, ...rest, ...kept });
  },
  envReference: (variable) => `\${{ secrets.${variable} }}`,
};
