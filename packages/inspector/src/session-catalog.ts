/**
 * The resources, resource templates and prompts of one connected server as the page lists and
 * reads them: the fields the page shows, nothing unset, everything through the session's redaction.
 */

import type { SessionServers } from './session-servers.js';
import type { UiPrompt, UiResources } from './ui-api.js';
import type { UiRedaction } from './ui-redaction.js';

/** The page's view of the servers' resources and prompts. */
export interface SessionCatalog {
  resources(server: string): Promise<UiResources>;
  readResource(server: string, uri: string): Promise<unknown>;
  prompts(server: string): Promise<UiPrompt[]>;
  getPrompt(server: string, name: string, args: Record<string, string>): Promise<unknown>;
}

/** Creates the catalog view over the session's servers. */
export function createSessionCatalog(servers: SessionServers, redaction: UiRedaction): SessionCatalog {
  return {
    async resources(server) {
      const client = servers.clientOf(server);
      if (!client.capabilities?.resources) return { resources: [], templates: [] };
      const [resources, templates] = await Promise.all([
        client.listResources(),
        client.listResourceTemplates(),
      ]);
      return redaction.value({
        resources: resources.map(({ uri, name, title, description, mimeType }) => ({
          uri,
          ...definedFields({ name, title, description, mimeType }),
        })),
        templates: templates.map(({ uriTemplate, name, title, description, mimeType }) => ({
          uriTemplate,
          ...definedFields({ name, title, description, mimeType }),
        })),
      });
    },
    readResource: async (server, uri) => redaction.value(await servers.clientOf(server).readResource(uri)),
    async prompts(server) {
      const client = servers.clientOf(server);
      if (!client.capabilities?.prompts) return [];
      return redaction.value(
        (await client.listPrompts()).map(({ name, title, description, arguments: args }) => ({
          name,
          ...definedFields({ title, description }),
          ...(args
            ? {
                arguments: args.map((arg) => ({
                  name: arg.name,
                  ...definedFields({ description: arg.description, required: arg.required }),
                })),
              }
            : {}),
        })),
      );
    },
    getPrompt: async (server, name, args) =>
      redaction.value(await servers.clientOf(server).getPrompt(name, args)),
  };
}

/** The fields of `fields` that are set. */
function definedFields<T extends Record<string, unknown>>(
  fields: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
