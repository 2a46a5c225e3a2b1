/**
 * The skills extension (SEP-2640, `io.modelcontextprotocol/skills`) served from a folder of skill
 * folders: the SDK builds and checks the catalog (`SkillCatalog.load` over `nodeSkillFiles`:
 * frontmatter, digests, limits); this provider gives the entries to `skills/list` and `skills/get`
 * (`skills-methods.ts`), the `SKILL.md` resources to `resources/list`, and serves `resources/read`
 * of any skill file (checked against the digest the catalog published).
 */
import { createHash } from 'node:crypto';
import {
  type CacheHint,
  ProtocolError,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import {
  SKILLS_EXTENSION_ID,
  type Skill,
  type SkillCatalog,
  SkillsExtension,
} from '@modelcontextprotocol/server/ext/skills';
import { nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
import type { Logger } from '@switchboard/core';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import type { SkillProvider } from './skill-provider.js';

/** The extension's identifier. */
export const skillsExtensionId: string = SKILLS_EXTENSION_ID;

/** Options of `createMcpServer({ skills })`. */
export interface SkillsOptions {
  /** A folder of skill folders, each with a `SKILL.md` (frontmatter `name`, `description`). */
  directory: string;
  /** Organisational prefix: `'acme'` serves `skill://acme/<skill>/…`. @default none */
  prefix?: string;
  /** Skills per `skills/list` page. @default 100 */
  pageSize?: number;
  /** `ttlMs` / `cacheScope` of skills results on 2026-07-28. @default { ttlMs: 0, cacheScope: 'private' } */
  cacheHint?: CacheHint;
}

const mimeTypes: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  js: 'text/javascript',
  ts: 'text/plain',
  sh: 'application/x-sh',
  html: 'text/html',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

function mimeTypeOf(uri: string): string {
  const dot = uri.lastIndexOf('.');
  return dot === -1
    ? 'application/octet-stream'
    : (mimeTypes[uri.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream');
}

interface FileEntry {
  path: string;
  digest: string;
  size: number;
}

interface LoadedSkills {
  skills: readonly Skill[];
  files: Map<string, FileEntry>;
}

/** Skills served from a folder. */
export class SkillsProvider implements SkillProvider {
  readonly specificationVersion = 'v1';
  readonly subscribable = false;
  readonly #files: ReturnType<typeof nodeSkillFiles>;
  readonly #baseUri: string;
  readonly #loaded: Promise<LoadedSkills>;

  constructor(options: SkillsOptions, logger: Logger) {
    this.#files = nodeSkillFiles(options.directory);
    const prefix = options.prefix?.replace(/^\/+|\/+$/g, '');
    this.#baseUri = prefix ? `skill://${prefix}/` : 'skill://';
    this.#loaded = SkillsExtension.load(this.#files, {
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      onWarning: (warning) => logger.warn({ path: warning.path }, `skills: ${warning.message}`),
    }).then(
      (catalog) => this.#index(catalog),
      (error: unknown) => {
        logger.error(
          { directory: options.directory, error: error instanceof Error ? error.message : String(error) },
          'skills: the catalog could not be loaded; serving no skills',
        );
        return { skills: [], files: new Map() };
      },
    );
  }

  /** A folder's skills are always served (an empty or unreadable folder serves none). */
  servesSkills(): boolean {
    return true;
  }

  async listResources(): Promise<Resource[]> {
    const { skills, files } = await this.#loaded;
    return skills.map((skill) => ({
      uri: skill.uri,
      name: String(skill.frontmatter.name),
      description: String(skill.frontmatter.description),
      mimeType: 'text/markdown',
      ...(files.get(skill.uri) !== undefined ? { size: files.get(skill.uri)?.size as number } : {}),
    }));
  }

  listResourceTemplates(): [] {
    return [];
  }

  async readResource(uri: string): Promise<ReadResourceResult | undefined> {
    if (!uri.startsWith(this.#baseUri)) return undefined;
    const { files } = await this.#loaded;
    const file = files.get(uri);
    if (file === undefined) return undefined;
    const bytes = await this.#files.read(file.path);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (bytes.byteLength !== file.size || digest !== file.digest) {
      throw new ProtocolError(
        JsonRpcErrorCode.InternalError,
        `${uri} changed since the skills catalog was loaded; restart the server to serve the new version.`,
      );
    }
    const mimeType = mimeTypeOf(uri);
    const text = decodeUtf8(bytes);
    return {
      contents: [
        text === undefined
          ? { uri, mimeType, blob: Buffer.from(bytes).toString('base64') }
          : { uri, mimeType, text },
      ],
    };
  }

  #index(catalog: SkillCatalog): LoadedSkills {
    const files = new Map<string, FileEntry>();
    for (const skill of catalog.entries) {
      if (skill.resources === 'dynamic') continue;
      for (const resource of skill.resources) {
        files.set(resource.uri, {
          path: resource.uri.slice('skill://'.length),
          digest: resource.digest,
          size: resource.size,
        });
      }
    }
    return { skills: catalog.entries, files };
  }

  /** The skills it serves. */
  async listSkills(): Promise<readonly Skill[]> {
    return (await this.#loaded).skills;
  }

  /** The skill whose `SKILL.md` is at `uri`, if it serves it. */
  async getSkill(uri: string): Promise<Skill | undefined> {
    return (await this.#loaded).skills.find((entry) => entry.uri === uri);
  }

  /** The first path segments of its skills (`skill://<segment>/…`): what other origins must not claim. */
  async rootSegments(): Promise<ReadonlySet<string>> {
    const { skills } = await this.#loaded;
    return new Set(skills.map((skill) => skill.uri.slice('skill://'.length).split('/')[0] ?? ''));
  }
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
