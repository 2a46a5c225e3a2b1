/**
 * The 2026-07-28 shape of a result: `resultType` (`complete` unless the handler said otherwise),
 * the server's identity in `_meta`, and the cache hints (`ttlMs`, `cacheScope`) the revision
 * requires on list results, `resources/read` and `server/discover`. 2025 results go out as
 * handlers wrote them.
 */
import { type Implementation, type Result, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';

/** Freshness hints of cacheable results. */
export interface CacheHint {
  /** How long a client may reuse the result, ms. @default 0 */
  ttlMs?: number;
  /** `public`: shared caches may keep it; `private`: only this client. @default 'private' */
  cacheScope?: 'public' | 'private';
}

/** The methods whose results carry cache hints on 2026-07-28 (closed list, as the SDK's). */
export const cacheableMethods: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
]);

/** Encodes a result for the modern era. */
export function encodeModernResult(
  method: string,
  result: Result,
  serverInfo: Implementation,
  cacheHint: CacheHint | undefined,
): Result {
  // A key-by-key copy, not `{ ...result }`: on Node 20 a spread copy that then gains keys costs
  // microseconds per result (more than the rest of an echo call), and the copy always gains some.
  const encoded: Record<string, unknown> = {};
  for (const key in result) encoded[key] = (result as Record<string, unknown>)[key];
  if (encoded.resultType === undefined) encoded.resultType = 'complete';
  const meta = result._meta;
  if (meta === undefined) encoded._meta = { [SERVER_INFO_META_KEY]: serverInfo };
  else if (meta[SERVER_INFO_META_KEY] === undefined)
    encoded._meta = Object.assign({}, meta, { [SERVER_INFO_META_KEY]: serverInfo });
  if (cacheableMethods.has(method) && encoded.resultType === 'complete') {
    if (encoded.ttlMs === undefined) encoded.ttlMs = cacheHint?.ttlMs ?? 0;
    if (encoded.cacheScope === undefined) encoded.cacheScope = cacheHint?.cacheScope ?? 'private';
  }
  return encoded as Result;
}
