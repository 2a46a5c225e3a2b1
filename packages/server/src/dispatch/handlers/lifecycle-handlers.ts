/**
 * Lifecycle methods of both eras: `initialize`, `ping` and `logging/setLevel` (2025 only) and
 * `server/discover` (2026-07-28, and answered on 2025 connections too as a probe).
 */
import {
  InitializeRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/core';
import type { Result } from '@modelcontextprotocol/server';
import { modernProtocolVersions, negotiateLegacyVersion } from '../../protocol/protocol-versions.js';
import type { InboundRequest } from '../../request/inbound-request.js';
import type { ServerScope } from '../server-scope.js';
import { checkParams } from './params-check.js';

/** `initialize`: settles the 2025 session's revision and records what the client declared. */
export function initialize(request: InboundRequest, scope: ServerScope): Result {
  const params = checkParams(InitializeRequestSchema, request);
  const protocolVersion = negotiateLegacyVersion(params.protocolVersion);
  const session = request.session;
  if (session !== undefined) {
    session.protocolVersion = protocolVersion;
    session.clientCapabilities = params.capabilities;
    session.clientInfo = params.clientInfo;
    session.initialized = true;
    scope.attachSession(session);
  }
  const result: Record<string, unknown> = {
    protocolVersion,
    capabilities: scope.capabilities('legacy'),
    serverInfo: scope.info,
  };
  if (scope.instructions !== undefined) result.instructions = scope.instructions;
  return result as Result;
}

/** `ping` (2025): an empty result. */
export function ping(request: InboundRequest): Result {
  checkParams(PingRequestSchema, request);
  return {};
}

/** `logging/setLevel` (2025): the session's level (a stateless request has no session to keep it). */
export function setLogLevel(request: InboundRequest): Result {
  const params = checkParams(SetLevelRequestSchema, request);
  if (request.session !== undefined) request.session.logLevel = params.level;
  return {};
}

/** `server/discover` (2026-07-28): the revisions, capabilities and instructions of this server. */
export function discover(_request: InboundRequest, scope: ServerScope): Result {
  const result: Record<string, unknown> = {
    supportedVersions: [...modernProtocolVersions],
    capabilities: scope.capabilities('modern'),
  };
  if (scope.instructions !== undefined) result.instructions = scope.instructions;
  return result as Result;
}
