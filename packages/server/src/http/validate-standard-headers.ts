/**
 * SEP-2243 standard headers of a 2026-07-28 request (the SDK classifier already refused a
 * `MCP-Protocol-Version` or `Mcp-Method` that disagrees with the body): both must be present, and
 * `Mcp-Name` must be present and equal the body's name, URI or task id for the methods that carry
 * one. Every failure is 400 with -32020 (HeaderMismatch). Notifications are exempt.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { mcpNameFieldOf } from '@switchboard/core';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { decodeMcpHeaderValue } from '../protocol/mcp-header-value.js';
import { failure, type GuardResult } from './http-failure.js';

/** One header's value, whitespace trimmed (RFC 9110 §5.5); the first of repeated ones. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim();
}

function mismatch(message: string, id: JSONRPCRequest['id'], header: string) {
  return failure(
    400,
    JsonRpcErrorCode.HeaderMismatch,
    `Bad Request: the request headers and body disagree: ${message}`,
    {
      id,
      data: { mismatch: { header } },
    },
  );
}

/** Validates the standard headers of a modern request. */
export function validateStandardHeaders(headers: IncomingHttpHeaders, message: JSONRPCRequest): GuardResult {
  if (headerValue(headers, 'mcp-protocol-version') === undefined) {
    return mismatch('the required MCP-Protocol-Version header is absent', message.id, '(missing)');
  }
  if (headerValue(headers, 'mcp-method') === undefined) {
    return mismatch(
      `the body names method ${message.method} but the required Mcp-Method header is absent`,
      message.id,
      '(missing)',
    );
  }
  const field = mcpNameFieldOf(message.method);
  if (field === undefined) return { ok: true };
  const source = (message.params as Record<string, unknown> | undefined)?.[field];
  const bodyValue = typeof source === 'string' ? source : undefined;
  const name = headerValue(headers, 'mcp-name');
  if (name === undefined) {
    return bodyValue === undefined
      ? { ok: true }
      : mismatch(
          `the body carries params.${field}="${bodyValue}" but the required Mcp-Name header is absent`,
          message.id,
          '(missing)',
        );
  }
  const decoded = decodeMcpHeaderValue(name);
  if (decoded === undefined)
    return mismatch('the Mcp-Name header carries an invalid base64 value', message.id, name);
  if (bodyValue !== undefined && decoded !== bodyValue) {
    return mismatch(
      `the body carries params.${field}="${bodyValue}" but the Mcp-Name header names "${decoded}"`,
      message.id,
      name,
    );
  }
  return { ok: true };
}
