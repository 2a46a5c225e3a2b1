/**
 * The upstreams' skills (SEP-2640, `io.modelcontextprotocol/skills`) served by the gateway beside
 * its own folder (`skills` option), as one skill provider of the gateway's server.
 *
 * Naming (why): a skill URI means something only on the server that serves it, and the downstream
 * host sees one server, the gateway. So every upstream skill gets its origin in its path: an
 * upstream's `skill://refunds/SKILL.md` is served as `skill://<server>/refunds/SKILL.md` (the
 * server's name becomes the first segment of the skill's organisational prefix, the final segment
 * is still the skill's `name`, as the extension requires), and a skill under another scheme as
 * `<server>+<uri>` (the gateway's explicit-upstream form). Two upstreams serving the same URI or
 * the same name thus stay two skills, told apart by their path. A namespace the gateway's own
 * folder already uses (a local skill folder named like an upstream) is never shared: that
 * upstream's skills move to `skill://<server>-upstream/…` (logged once), so neither origin shadows
 * the other.
 *
 * Entries are relayed unchanged but for their URIs (frontmatter, digests and sizes as the upstream
 * published them) and `_meta["switchboard/server"]`. A file read through the gateway is read from
 * the upstream and verified against the entry the gateway holds (size, SHA-256 digest, and for a
 * `SKILL.md` its frontmatter: the client's `readSkill`, over the SDK's `SkillsClient`); content
 * that fails is refused with an error naming the upstream, the file and the reason, never relayed.
 */
import { readdirSync } from 'node:fs';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/server/ext/skills';
import { type McpClient, prefixServerUri, serverMetaKey, serverOfPrefixedUri } from '@switchboard/client';
import type { Logger } from '@switchboard/core';
import type { ProviderContext, SkillProvider, SkillsOptions } from '@switchboard/server';
import { type GatewayUpstreamClient, upstreamError } from './gateway-catalog.js';

/** What the skills need of an upstream's client (an `McpClient` fits). */
type SkillsClientPart = Partial<Pick<McpClient, 'listSkills' | 'getSkill' | 'readSkill'>>;

/** Where the skills find the upstream servers. */
export interface GatewaySkillsSource {
  readonly servers?: readonly string[];
  client?(server: string): (GatewayUpstreamClient & SkillsClientPart) | undefined;
}

/** Options of {@link GatewaySkills}. */
export interface GatewaySkillsOptions {
  source: GatewaySkillsSource;
  /** The gateway's own skills folder: the namespaces it uses are not given to upstreams. @default none */
  local?: SkillsOptions;
  /** How long one upstream may take to list its skills before the listing goes on without them. @default 5000 */
  listTimeoutMs?: number;
  logger: Logger;
}

const skillScheme = 'skill://';

/** A skill served here: the upstream it came from and its entry as the upstream gave it. */
interface HeldSkill {
  server: string;
  entry: Skill;
  /** The skill's root as served here (the `SKILL.md` URI without `/SKILL.md`). */
  exposedRoot: string;
}

/** The namespaces of a local skills folder: its prefix's first segment, else its top-level folders. */
export function localSkillRoots(local: SkillsOptions | undefined): ReadonlySet<string> {
  if (local === undefined) return new Set();
  const prefix = local.prefix?.replace(/^\/+|\/+$/g, '');
  if (prefix) return new Set([prefix.split('/')[0] as string]);
  try {
    return new Set(
      readdirSync(local.directory, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
  } catch {
    // The server logs an unreadable folder when it loads it; it then serves no skills.
    return new Set();
  }
}

/** The upstreams' skills, namespaced per origin and verified on read. */
export class GatewaySkills implements SkillProvider {
  readonly specificationVersion = 'v1';
  readonly subscribable = false;
  readonly #options: GatewaySkillsOptions;
  readonly #localRoots: ReadonlySet<string>;
  readonly #moved = new Set<string>();
  /** Held entries by the URI of their `SKILL.md` as served here. */
  readonly #held = new Map<string, HeldSkill>();

  constructor(options: GatewaySkillsOptions) {
    this.#options = options;
    this.#localRoots = localSkillRoots(options.local);
  }

  servesSkills(): boolean {
    return [...this.#upstreams().values()].some((client) => declaresSkills(client));
  }

  /** Their `SKILL.md` resources are in the upstreams' own `resources/list` (the gateway catalog's). */
  listResources(): [] {
    return [];
  }

  listResourceTemplates(): [] {
    return [];
  }

  async listSkills(_context: ProviderContext): Promise<Skill[]> {
    const upstreams = [...this.#upstreams()].filter(([, client]) => declaresSkills(client));
    const lists = await Promise.all(
      upstreams.map(async ([server, client]) => {
        try {
          const entries = await bounded(
            client.listSkills?.() ?? Promise.resolve([]),
            this.#options.listTimeoutMs ?? 5000,
          );
          return entries.map((entry) => this.#hold(server, entry));
        } catch (error) {
          this.#options.logger.warn(
            {
              server,
              operation: 'skills/list',
              error: error instanceof Error ? error.message : String(error),
            },
            `gateway: skills/list of upstream "${server}" failed or was too slow; serving the others`,
          );
          return [];
        }
      }),
    );
    return lists.flat();
  }

  async getSkill(uri: string, _context: ProviderContext): Promise<Skill | undefined> {
    const target = this.#upstreamOf(uri);
    if (target === undefined) return undefined;
    const client = this.#upstreams().get(target.server);
    if (client?.getSkill === undefined || !declaresSkills(client)) return undefined;
    let entry: Skill;
    try {
      entry = await client.getSkill(target.uri);
    } catch (error) {
      throw upstreamError(target.server, 'skills/get', uri, error);
    }
    return this.#hold(target.server, entry);
  }

  async readResource(uri: string, context: ProviderContext): Promise<ReadResourceResult | undefined> {
    const target = this.#upstreamOf(uri);
    if (target === undefined) return undefined;
    let held = this.#heldFile(uri);
    if (held === undefined) {
      // Read before any listing (or the upstream changed): look at the listing again.
      await this.listSkills(context);
      held = this.#heldFile(uri);
    }
    if (held === undefined) return undefined;
    const client = this.#upstreams().get(held.server);
    if (client?.readSkill === undefined) return undefined;
    try {
      const file = await client.readSkill(held.entry, target.uri);
      const mimeType = file.mimeType === undefined ? {} : { mimeType: file.mimeType };
      return {
        contents: [
          file.text === undefined
            ? { uri, ...mimeType, blob: Buffer.from(file.bytes).toString('base64') }
            : { uri, ...mimeType, text: file.text },
        ],
      };
    } catch (error) {
      throw upstreamError(held.server, 'resources/read', uri, error);
    }
  }

  /** Keeps an upstream entry and returns it as served here. */
  #hold(server: string, entry: Skill): Skill {
    const namespace = this.#namespaceOf(server);
    const expose = (uri: string) => exposeUri(server, namespace, uri);
    const served: Skill = {
      ...entry,
      uri: expose(entry.uri),
      resources: Array.isArray(entry.resources)
        ? entry.resources.map((resource) => ({ ...resource, uri: expose(resource.uri) }))
        : entry.resources,
      _meta: { ...entry._meta, [serverMetaKey]: server },
    };
    this.#held.set(served.uri, { server, entry, exposedRoot: rootOf(served.uri) });
    return served;
  }

  /** The held skill a file served here belongs to: listed in its entry, or under a dynamic skill's root. */
  #heldFile(uri: string): HeldSkill | undefined {
    let best: HeldSkill | undefined;
    for (const held of this.#held.values()) {
      if (!uri.startsWith(`${held.exposedRoot}/`)) continue;
      if (best !== undefined && best.exposedRoot.length >= held.exposedRoot.length) continue;
      const namespace = this.#namespaceOf(held.server);
      const listed =
        held.entry.resources === 'dynamic' ||
        held.entry.resources.some((resource) => exposeUri(held.server, namespace, resource.uri) === uri);
      if (listed) best = held;
    }
    return best;
  }

  /** The upstream and its own URI of a URI served here. */
  #upstreamOf(uri: string): { server: string; uri: string } | undefined {
    const servers = [...this.#upstreams().keys()];
    if (uri.startsWith(skillScheme)) {
      const rest = uri.slice(skillScheme.length);
      const slash = rest.indexOf('/');
      if (slash <= 0) return undefined;
      const namespace = rest.slice(0, slash);
      const server = servers.find((name) => this.#namespaceOf(name) === namespace);
      return server === undefined ? undefined : { server, uri: `${skillScheme}${rest.slice(slash + 1)}` };
    }
    return serverOfPrefixedUri(uri, servers);
  }

  /** An upstream's first path segment here: its name, unless the local folder uses it. */
  #namespaceOf(server: string): string {
    if (!this.#localRoots.has(server)) return server;
    const taken = new Set([...this.#localRoots, ...(this.#options.source.servers ?? [])]);
    let namespace = `${server}-upstream`;
    for (let n = 2; taken.has(namespace); n += 1) namespace = `${server}-upstream-${n}`;
    if (!this.#moved.has(server)) {
      this.#moved.add(server);
      this.#options.logger.warn(
        { server, namespace },
        `gateway: the skills folder already serves skill://${server}/…; the skills of upstream "${server}" are served under skill://${namespace}/… instead`,
      );
    }
    return namespace;
  }

  #upstreams(): Map<string, GatewayUpstreamClient & SkillsClientPart> {
    const result = new Map<string, GatewayUpstreamClient & SkillsClientPart>();
    const { source } = this.#options;
    for (const server of source.servers ?? []) {
      let client: (GatewayUpstreamClient & SkillsClientPart) | undefined;
      try {
        client = source.client?.(server);
      } catch {
        // A server removed between reading `servers` and asking for its client.
        continue;
      }
      if (client !== undefined && client.connected !== false) result.set(server, client);
    }
    return result;
  }
}

function declaresSkills(client: GatewayUpstreamClient): boolean {
  const extensions = (client.capabilities as { extensions?: Record<string, unknown> } | undefined)
    ?.extensions;
  return extensions?.[SKILLS_EXTENSION_ID] !== undefined;
}

/** An upstream's URI as served here. */
function exposeUri(server: string, namespace: string, uri: string): string {
  return uri.startsWith(skillScheme)
    ? `${skillScheme}${namespace}/${uri.slice(skillScheme.length)}`
    : prefixServerUri(server, uri);
}

/** A skill's root: its `SKILL.md` URI without the file name. */
function rootOf(skillUri: string): string {
  return skillUri.slice(0, skillUri.lastIndexOf('/'));
}

/** `pending`, or a rejection once `timeoutMs` passed. */
async function bounded<T>(pending: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([pending, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
