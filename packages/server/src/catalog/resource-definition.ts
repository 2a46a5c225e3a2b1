/** Resources and resource templates a Switchboard MCP server serves. */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';

/** The contents `read` returns: a full `ReadResourceResult`, or text, or bytes. */
export type ResourceReadValue = ReadResourceResult | string | Uint8Array;

/** A resource at a fixed URI. */
export interface ResourceDefinition extends Omit<Resource, 'uri' | 'name'> {
  uri: string;
  name: string;
  /** Returns the resource's contents. */
  read(uri: string, context: { signal: AbortSignal }): Promise<ResourceReadValue> | ResourceReadValue;
}

/** Resources addressed by an RFC 6570 URI template such as `file:///{path}`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Reads the resource a matching URI names; `variables` holds the template's values. */
  read(
    uri: string,
    variables: Record<string, string | string[]>,
    context: { signal: AbortSignal },
  ): Promise<ResourceReadValue> | ResourceReadValue;
  /** Completion of template variables: values for `name` starting like `value`. */
  complete?: Record<
    string,
    (value: string, context: { arguments: Record<string, string> }) => Promise<string[]> | string[]
  >;
}
