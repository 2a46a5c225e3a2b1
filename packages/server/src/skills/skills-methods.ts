/**
 * `skills/list`, `skills/get` and `resources/directory/read` (SEP-2640) over the server's skill
 * providers: the listing is every provider's entries in order, paged by offset; a get asks each
 * provider in turn; a directory read lists the children of a skill's folder from the entries
 * (`skill-directory.ts`). A URI no provider serves is -32602, as the extension says.
 */
import { ProtocolError, type Result } from '@modelcontextprotocol/server';
import {
  RESOURCES_DIRECTORY_READ_METHOD,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '@modelcontextprotocol/server/ext/skills';
import { providerContext } from '../dispatch/handlers/resources-handlers.js';
import type { MethodRoute } from '../dispatch/method-table.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import type { CacheHint } from '../protocol/encode-result.js';
import type { InboundRequest } from '../request/inbound-request.js';
import { skillDirectoryChildren } from './skill-directory.js';
import type { SkillProvider } from './skill-provider.js';

/** How the methods page and hint. */
export interface SkillsMethodsOptions {
  /** Skills per `skills/list` page. */
  pageSize: number;
  /** `ttlMs` / `cacheScope` of skills results on 2026-07-28. */
  cacheHint: CacheHint;
}

/** The routes of `skills/list` and `skills/get` over `providers`. */
export function skillsRoutes(
  providers: readonly SkillProvider[],
  options: SkillsMethodsOptions,
): Array<[string, MethodRoute]> {
  const cacheFields = (request: InboundRequest): Record<string, unknown> =>
    request.era === 'modern'
      ? { ttlMs: options.cacheHint.ttlMs, cacheScope: options.cacheHint.cacheScope }
      : {};

  const list = async (request: InboundRequest): Promise<Result> => {
    const cursor = request.params?.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        'Invalid params for "skills/list": cursor must be a string.',
      );
    }
    const context = providerContext(request);
    const skills = (await Promise.all(providers.map((provider) => provider.listSkills(context)))).flat();
    const start = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(start) || start < 0 || start > skills.length) {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        `Invalid params for "skills/list": unknown cursor ${JSON.stringify(cursor)}; list again without one.`,
      );
    }
    const end = start + options.pageSize;
    return {
      skills: skills.slice(start, end),
      ...(end < skills.length ? { nextCursor: String(end) } : {}),
      ...cacheFields(request),
    } as Result;
  };

  const get = async (request: InboundRequest): Promise<Result> => {
    const uri = request.params?.uri;
    if (typeof uri !== 'string') {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        'Invalid params for "skills/get": uri must be the skill\'s SKILL.md URI.',
      );
    }
    const context = providerContext(request);
    for (const provider of providers) {
      const skill = await provider.getSkill(uri, context);
      if (skill !== undefined) return { skill, ...cacheFields(request) } as Result;
    }
    throw new ProtocolError(
      JsonRpcErrorCode.InvalidParams,
      `No skill is served at ${uri}; call skills/list for the served skills.`,
      { uri },
    );
  };

  const readDirectory = async (request: InboundRequest): Promise<Result> => {
    const { uri, cursor } = request.params ?? {};
    if (typeof uri !== 'string') {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        `Invalid params for "${RESOURCES_DIRECTORY_READ_METHOD}": uri must be a directory's URI (a skill's root or a folder inside it).`,
      );
    }
    // One page: a skill has at most a few hundred files, so there is never a second.
    if (cursor !== undefined) {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        `Invalid params for "${RESOURCES_DIRECTORY_READ_METHOD}": unknown cursor ${JSON.stringify(cursor)}; this server answers in one page, read again without one.`,
      );
    }
    const context = providerContext(request);
    const skills = (await Promise.all(providers.map((provider) => provider.listSkills(context)))).flat();
    const resources = skillDirectoryChildren(uri, skills);
    if (resources === undefined) {
      throw new ProtocolError(
        JsonRpcErrorCode.InvalidParams,
        `${uri} is not a directory resource of this server (a skill's root or a folder inside it); read a file with resources/read.`,
        { uri },
      );
    }
    return { resources, ...cacheFields(request) } as Result;
  };

  return [
    [SKILLS_LIST_METHOD, { legacy: true, modern: true, handle: list }],
    [SKILLS_GET_METHOD, { legacy: true, modern: true, handle: get }],
    [RESOURCES_DIRECTORY_READ_METHOD, { legacy: true, modern: true, handle: readDirectory }],
  ];
}
