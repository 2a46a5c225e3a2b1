/**
 * SEP-2243 custom headers: a tool's input schema may mirror primitive arguments into
 * `Mcp-Param-<Name>` headers (`"x-mcp-header": "<Name>"` on a property reachable through
 * `properties`). On a 2026-07-28 `tools/call`, each mirrored argument present in the body needs its
 * header, with the same value (numbers compared as numbers); otherwise 400 with -32020.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { decodeMcpHeaderValue, headerTextOf } from '../protocol/mcp-header-value.js';
import { failure, type GuardResult } from './http-failure.js';
import { headerValue } from './validate-standard-headers.js';

/** One mirrored argument. */
export interface ParamHeaderDeclaration {
  /** Path of the property through `properties`. */
  path: readonly string[];
  /** The header suffix (`Mcp-Param-<headerName>`). */
  headerName: string;
  type: string | undefined;
}

const decimal = /^-?\d+(\.\d+)?$/;

// Schemas are immutable once registered: their declarations are found once per schema.
const declarationsOf = new WeakMap<object, ParamHeaderDeclaration[]>();

/** The mirrored arguments of a tool's input schema (computed once per schema). */
export function paramHeaderDeclarations(schema: object): ParamHeaderDeclaration[] {
  let found = declarationsOf.get(schema);
  if (found === undefined) {
    found = scanDeclarations(schema, []);
    declarationsOf.set(schema, found);
  }
  return found;
}

/** The mirrored arguments of a schema (only statically reachable `properties` count). */
function scanDeclarations(schema: unknown, path: readonly string[]): ParamHeaderDeclaration[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: ParamHeaderDeclaration[] = [];
  const header = node['x-mcp-header'];
  if (path.length > 0 && typeof header === 'string' && header.length > 0) {
    found.push({ path, headerName: header, type: typeof node.type === 'string' ? node.type : undefined });
  }
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const [key, child] of Object.entries(properties))
      found.push(...scanDeclarations(child, [...path, key]));
  }
  return found;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Validates the `Mcp-Param-*` headers of a modern `tools/call` against the tool's declarations. */
export function validateParamHeaders(
  headers: IncomingHttpHeaders,
  message: JSONRPCRequest,
  declarations: readonly ParamHeaderDeclaration[],
): GuardResult {
  const args = (message.params as { arguments?: unknown } | undefined)?.arguments;
  for (const declaration of declarations) {
    const bodyRaw = valueAt(args, declaration.path);
    if (bodyRaw === undefined || bodyRaw === null) continue;
    const bodyText = headerTextOf(bodyRaw);
    // A non-primitive where the schema says primitive is for argument validation to report.
    if (bodyText === undefined) continue;
    const name = `Mcp-Param-${declaration.headerName}`;
    const given = headerValue(headers, name.toLowerCase());
    const where = declaration.path.join('.');
    const refuse = (why: string) =>
      failure(
        400,
        JsonRpcErrorCode.HeaderMismatch,
        `Bad Request: the request headers and body disagree: ${why}`,
        {
          id: message.id,
          data: { mismatch: { header: name } },
        },
      );
    if (given === undefined)
      return refuse(`the body carries ${where}=${JSON.stringify(bodyRaw)} but the ${name} header is absent`);
    const decoded = decodeMcpHeaderValue(given);
    if (decoded === undefined) return refuse(`the ${name} header carries an invalid base64 value`);
    const numeric =
      (declaration.type === 'integer' || declaration.type === 'number') &&
      typeof bodyRaw === 'number' &&
      decimal.test(decoded);
    if (numeric ? Number(decoded) !== bodyRaw : decoded !== bodyText) {
      return refuse(
        `the ${name} header decodes to ${JSON.stringify(decoded)} but the body carries ${where}=${JSON.stringify(bodyRaw)}`,
      );
    }
  }
  return { ok: true };
}
