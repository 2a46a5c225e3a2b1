/**
 * `x-mcp-header` (SEP-2243, 2026-07-28 over HTTP): a tool's input schema may mark primitive
 * properties whose values a call mirrors into `Mcp-Param-{Name}` headers, so that gateways and
 * load balancers can route on them without reading the body. Here: reading a tool's declarations
 * once (with every rule the spec sets: only on properties reachable through `properties` alone,
 * a non-empty RFC 9110 token, unique case-insensitively, on a string, integer or boolean), and the
 * headers of one call. A tool whose declarations break a rule is invalid: it is not offered.
 */
import { encodeMcpHeaderValue } from '@switchboard/transports';

/** One declared header: where its value is in the arguments, and its name. */
export interface McpParamDeclaration {
  readonly path: readonly string[];
  readonly headerName: string;
}

/** A tool's declarations, or why the tool is invalid. */
export type McpParamScan =
  | { valid: true; declarations: McpParamDeclaration[] }
  | { valid: false; reason: string };

const declarationKey = 'x-mcp-header';
/** RFC 9110 `token`: no spaces, controls or delimiters. */
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const primitiveTypes: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
/** Subschema keywords a declaration may not sit under (not reachable through `properties` alone). */
const unreachableKeywords = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;
/** Of those, the ones whose value maps names to subschemas. */
const namedSubschemas: ReadonlySet<string> = new Set([
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

/** True when a schema mentions `x-mcp-header` at all (the cheap test before a scan). */
export function declaresMcpParams(inputSchema: unknown): boolean {
  return JSON.stringify(inputSchema ?? null).includes(`"${declarationKey}"`);
}

/** Reads the `x-mcp-header` declarations of a tool's input schema. */
export function scanMcpParams(inputSchema: unknown): McpParamScan {
  const declarations: McpParamDeclaration[] = [];
  const seen = new Map<string, string>();
  const where = (path: readonly string[]) => (path.length === 0 ? '<root>' : path.join('.'));

  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    const schema = node as Record<string, unknown>;
    if (declarationKey in schema) {
      if (!reachable || path.length === 0) {
        return `${where(path)}: x-mcp-header is allowed only on properties reached through "properties" alone`;
      }
      const name = schema[declarationKey];
      if (typeof name !== 'string' || !token.test(name)) {
        return `${where(path)}: x-mcp-header must be a non-empty RFC 9110 token, not ${JSON.stringify(name)}`;
      }
      const type = typeof schema.type === 'string' ? schema.type : undefined;
      if (type === undefined || !primitiveTypes.has(type)) {
        return `${where(path)}: x-mcp-header is allowed only on string, integer or boolean properties, not ${type ?? 'untyped ones'}`;
      }
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined)
        return `x-mcp-header "${name}" repeats "${earlier}" (names are case-insensitive)`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, headerName: name });
    }
    const properties = schema.properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault !== undefined) return fault;
      }
    }
    for (const keyword of unreachableKeywords) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : namedSubschemas.has(keyword) && typeof sub === 'object' && sub !== null
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false);
        if (fault !== undefined) return fault;
      }
    }
    return undefined;
  };

  const fault = visit(inputSchema, [], true);
  return fault === undefined ? { valid: true, declarations } : { valid: false, reason: fault };
}

/** The `Mcp-Param-*` headers of one call; a declared value that is absent, null or not a primitive is left out. */
export function mcpParamHeaders(
  declarations: readonly McpParamDeclaration[],
  args: Record<string, unknown>,
): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const declaration of declarations) {
    let value: unknown = args;
    for (const key of declaration.path) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    const text = headerText(value);
    if (text === undefined) continue;
    headers ??= {};
    // An empty value would read as an absent header: the spec's Base64 form keeps it.
    headers[`Mcp-Param-${declaration.headerName}`] = text === '' ? '=?base64??=' : encodeMcpHeaderValue(text);
  }
  return headers;
}

function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!Number.isInteger(value) || Number.isSafeInteger(value))
  ) {
    return String(value);
  }
  return undefined;
}
