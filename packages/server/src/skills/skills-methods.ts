/**
 * `skills/list` and `skills/get` (SEP-2640) over the server's skill providers: the listing is every
 * provider's entries in order, paged by offset; a get asks each provider in turn. A URI no provider
 * serves is -32602, as the extension says.
 */
import { ProtocolError, type Result } from '@modelcontextprotocol/server';
import { SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '@modelcontextprotocol/server/ext/skills';
import { providerContext } from '../dispatch/handlers/resources-handlers.js';
import type { MethodRoute } from '../dispatch/method-table.js';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import type { CacheHint } from '../protocol/encode-result.js';
import type { InboundRequest } from '../request/inbound-request.js';
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

  return [
    [SKILLS_LIST_METHOD, { legacy: true, modern: true, handle: list }],
    [SKILLS_GET_METHOD, { legacy: true, modern: true, handle: get }],
  ];
}
