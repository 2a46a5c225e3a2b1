/**
 * Which protocol era a connection speaks, found out on the wire. Without a pin the client probes
 * the modern era first (`server/discover`, 2026-07-28) and reads the answer as the spec's version
 * negotiation does: a discover result naming a version both speak is modern; a refusal with the
 * server's versions corrects the offer once; a 2025 server's refusal (an unknown method, an HTTP
 * 4xx without a modern error) falls back to the 2025 `initialize`. Over stdio a server that stays
 * silent is a legacy one, and one that exits on the probe is a legacy server that accepts nothing
 * before `initialize` — the connect steps start it again for the handshake. A modern pin probes
 * with no fallback; a 2025 pin runs `initialize` offering it, with no probe at all.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SERVER_INFO_META_KEY,
  type ServerCapabilities,
} from '@modelcontextprotocol/client';
import { DiscoverResultSchema, ImplementationSchema } from '@modelcontextprotocol/core';
import { JsonRpcErrorCode } from '@switchboard/transports';
import { ClientError, ClientErrorCode } from './client-error.js';
import {
  eraOf,
  legacyProtocolVersions,
  modernProtocolVersions,
  type ProtocolEra,
} from './protocol-version.js';
import type { RequestEngine } from './request-engine.js';

/** What a connection learned about its server. */
export interface NegotiatedSession {
  era: ProtocolEra;
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** The `server/discover` result as it came (modern). */
  discover?: Record<string, unknown>;
}

/** What the negotiation needs to know. */
export interface NegotiationSettings {
  /** The server's name (for errors). */
  server: string;
  /** A pinned protocol version (checked already), or undefined to negotiate. */
  pin: string | undefined;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** How the server is reached: over stdio silence and an exit mean a legacy server. */
  stdio: boolean;
  /** Deadline of the probe. */
  probeTimeoutMs: number;
  /** Deadline of `initialize`. */
  initializeTimeoutMs: number;
}

/** The probe's verdict when it is not a modern session: `initialize` next, on a fresh process if `restart`. */
export interface LegacyVerdict {
  era: 'legacy';
  /** The stdio server exited on the probe: start it again before `initialize`. */
  restart: boolean;
}

/** The `_meta` envelope a modern request carries (frozen: shared by every request of the connection). */
export function modernEnvelope(
  version: string,
  clientInfo: Implementation,
  capabilities: ClientCapabilities,
): Readonly<Record<string, unknown>> {
  return Object.freeze({
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_INFO_META_KEY]: clientInfo,
    [CLIENT_CAPABILITIES_META_KEY]: capabilities,
  });
}

/**
 * Probes the modern era (no pin, or a modern pin): the modern session, or the verdict to run
 * `initialize`. Throws what cannot be negotiated (auth, outages, a pin the server refused).
 */
export async function probeModernEra(
  engine: RequestEngine,
  settings: NegotiationSettings,
): Promise<NegotiatedSession | LegacyVerdict> {
  const offered = settings.pin === undefined ? modernProtocolVersions : [settings.pin];
  let version = offered[0] as string;
  for (let corrected = false; ; corrected = true) {
    const verdict = await probeOnce(engine, settings, version, offered);
    if (verdict.kind === 'modern') {
      engine.setModern(modernEnvelope(verdict.version, settings.clientInfo, settings.capabilities));
      engine.setProtocolVersion(verdict.version);
      return verdict.session;
    }
    if (verdict.kind === 'corrective' && !corrected) {
      version = verdict.version;
      continue;
    }
    if (verdict.kind === 'error' || verdict.kind === 'corrective') throw verdict.error;
    if (settings.pin !== undefined) {
      throw new SdkError(
        SdkErrorCode.EraNegotiationFailed,
        `the server did not offer the pinned protocol version ${settings.pin} via server/discover (a pin has no fallback)`,
      );
    }
    return { era: 'legacy', restart: verdict.exited };
  }
}

type ProbeOutcome =
  | { kind: 'modern'; version: string; session: NegotiatedSession }
  | { kind: 'legacy'; exited: boolean }
  | { kind: 'corrective'; version: string; error: unknown }
  | { kind: 'error'; error: unknown };

async function probeOnce(
  engine: RequestEngine,
  settings: NegotiationSettings,
  version: string,
  offered: readonly string[],
): Promise<ProbeOutcome> {
  let result: unknown;
  try {
    result = await engine.request('server/discover', undefined, {
      timeoutMs: settings.probeTimeoutMs,
      envelope: modernEnvelope(version, settings.clientInfo, settings.capabilities),
    });
  } catch (error) {
    return classifyRefusal(error, settings, offered);
  }
  const parsed = DiscoverResultSchema.safeParse(result);
  if (!parsed.success) return { kind: 'legacy', exited: false };
  const discover = parsed.data;
  const mutual = offered.find((candidate) => discover.supportedVersions.includes(candidate));
  if (mutual === undefined) {
    return settings.pin === undefined
      ? { kind: 'legacy', exited: false }
      : { kind: 'error', error: unsupported(discover.supportedVersions, settings) };
  }
  const info = ImplementationSchema.safeParse(discover._meta?.[SERVER_INFO_META_KEY]);
  return {
    kind: 'modern',
    version: mutual,
    session: {
      era: 'modern',
      protocolVersion: mutual,
      capabilities: discover.capabilities as ServerCapabilities,
      serverInfo: info.success ? (info.data as Implementation) : undefined,
      instructions: (discover as { instructions?: string }).instructions,
      discover: result as Record<string, unknown>,
    },
  };
}

/** Reads a failed probe: a legacy server's refusal, a correction, or an error to throw. */
function classifyRefusal(
  error: unknown,
  settings: NegotiationSettings,
  offered: readonly string[],
): ProbeOutcome {
  if (error instanceof ProtocolError) return classifyRpcError(error.code, error.data, error, offered);
  if (error instanceof SdkHttpError) {
    const status = error.status;
    if (status === 401 || status === 403 || status >= 500) return { kind: 'error', error };
    const answer = jsonRpcErrorIn((error.data as { text?: unknown } | undefined)?.text);
    return answer === undefined
      ? { kind: 'legacy', exited: false }
      : classifyRpcError(answer.code, answer.data, error, offered);
  }
  if (error instanceof SdkError && settings.stdio) {
    // Over stdio a silent server is a 2025 one; one that exited accepts nothing before initialize.
    if (error.code === SdkErrorCode.RequestTimeout) return { kind: 'legacy', exited: false };
    if (error.code === SdkErrorCode.ConnectionClosed) return { kind: 'legacy', exited: true };
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return {
      kind: 'error',
      error: new SdkError(
        SdkErrorCode.RequestTimeout,
        `the version probe (server/discover) got no answer within ${settings.probeTimeoutMs} ms`,
        { timeout: settings.probeTimeoutMs },
      ),
    };
  }
  return { kind: 'error', error };
}

function classifyRpcError(
  code: number,
  data: unknown,
  error: unknown,
  offered: readonly string[],
): ProbeOutcome {
  if (code !== JsonRpcErrorCode.UnsupportedProtocolVersion) return { kind: 'legacy', exited: false };
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  if (!Array.isArray(supported) || !supported.every((item) => typeof item === 'string')) {
    return { kind: 'legacy', exited: false };
  }
  const mutual = offered.find((version) => supported.includes(version));
  if (mutual !== undefined) return { kind: 'corrective', version: mutual, error };
  if (supported.some((version: string) => eraOf(version) === 'modern')) return { kind: 'error', error };
  return { kind: 'legacy', exited: false };
}

function jsonRpcErrorIn(text: unknown): { code: number; data: unknown } | undefined {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; data?: unknown } }).error;
    return typeof error?.code === 'number' ? { code: error.code, data: error.data } : undefined;
  } catch {
    return undefined;
  }
}

function unsupported(supported: readonly string[], settings: NegotiationSettings): ProtocolError {
  return new ProtocolError(
    JsonRpcErrorCode.UnsupportedProtocolVersion,
    `the server supports ${supported.join(', ')}, not the pinned ${settings.pin}`,
    { supported: [...supported], requested: settings.pin },
  );
}

/** The 2025 handshake: `initialize` offering the pin (or the newest 2025 version), then `initialized`. */
export async function initializeLegacyEra(
  engine: RequestEngine,
  settings: NegotiationSettings,
): Promise<NegotiatedSession> {
  const offered =
    settings.pin === undefined || eraOf(settings.pin) === 'modern'
      ? legacyProtocolVersions
      : [settings.pin, ...legacyProtocolVersions.filter((version) => version !== settings.pin)];
  const result = (await engine.request(
    'initialize',
    { protocolVersion: offered[0], capabilities: settings.capabilities, clientInfo: settings.clientInfo },
    { timeoutMs: settings.initializeTimeoutMs },
  )) as { protocolVersion?: unknown; capabilities?: unknown; serverInfo?: unknown; instructions?: unknown };
  const version = result?.protocolVersion;
  if (typeof version !== 'string' || !offered.includes(version)) {
    throw new ClientError({
      code: ClientErrorCode.UnsupportedProtocolVersion,
      message: `MCP server "${settings.server}" answered initialize with protocol version ${JSON.stringify(version)}, which this client does not speak (it speaks ${offered.join(', ')}).`,
      context: { server: settings.server, protocolVersion: version, supported: [...offered] },
    });
  }
  engine.setProtocolVersion(version);
  await engine.notify('notifications/initialized');
  const info = ImplementationSchema.safeParse(result.serverInfo);
  return {
    era: 'legacy',
    protocolVersion: version,
    capabilities: (typeof result.capabilities === 'object' && result.capabilities !== null
      ? result.capabilities
      : {}) as ServerCapabilities,
    serverInfo: info.success
      ? (info.data as Implementation)
      : (result.serverInfo as Implementation | undefined),
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}
