/**
 * Streamable HTTP on `node:http`, both protocol eras on one endpoint. `serveHttp` assembles the
 * parts, each in its own file: the options checked once (`http-options.ts`), the links to the
 * other replicas (`cluster-wiring.ts`), the entry with its guards (`request-router.ts`), the POST
 * path (`mcp-post.ts`: body read once → scopes → classify → rate limit once → serve), the probes
 * (`probe-endpoints.ts`) and the drain (`drain-controller.ts`); then it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadOpenTelemetry } from '@switchboard/core';
import type { McpServer } from '../server/mcp-server.js';
import { wireCluster } from './cluster-wiring.js';
import { DrainController } from './drain-controller.js';
import { resolveHttpOptions } from './http-options.js';
import type { HttpServerHandle, HttpTransportOptions } from './http-transport-options.js';
import { McpPost } from './mcp-post.js';
import { RequestRouter } from './request-router.js';

export type { BearerAuthOptions, HttpServerHandle, HttpTransportOptions } from './http-transport-options.js';

/** Starts the HTTP server for `server`. */
export async function serveHttp(server: McpServer, options: HttpTransportOptions): Promise<HttpServerHandle> {
  const config = resolveHttpOptions(options, server.logger);
  const wiring = wireCluster(server, options, config);
  const http = createServer();
  http.keepAliveTimeout = 65_000;
  const drain = new DrainController(http, {
    timeoutMs: config.drainTimeoutMs,
    waitsForIdleClose: config.drainWaitsForIdleClose,
    logger: server.logger,
  });
  const sessions = wiring.sessions;
  const router = new RequestRouter({
    config,
    sessions,
    drain,
    logger: server.logger,
    probes: { server, config, cluster: wiring.cluster, drain, sessionCount: () => sessions?.size },
    post: new McpPost({
      server,
      config,
      cluster: wiring.cluster,
      sessions,
      exchanges: wiring.exchanges,
      forwarding: wiring.forwarding,
      relayId: wiring.relayId,
      drainSignal: drain.signal,
    }),
  });
  http.on('request', (request, response) => router.handle(request, response));
  // Telemetry is ready before the first request (the optional @opentelemetry/api, loaded once).
  await loadOpenTelemetry();
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(config.port, config.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Not serving after all: nothing may stay subscribed to the bus or the cluster state.
    wiring.stop();
    throw error;
  }
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}${config.path}`;
  server.logger.info(
    `MCP server "${server.name}" listening on ${url} (${sessions ? 'session' : 'stateless'} mode; 2025 and 2026-07-28 clients)`,
  );
  const endStandaloneStreams = () => sessions?.endStandaloneStreams();
  let closed: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    host: config.host,
    ...(config.replicaId !== undefined ? { replicaId: config.replicaId } : {}),
    drain: () => drain.drain(endStandaloneStreams),
    close: () => {
      closed ??= drain.close(endStandaloneStreams, () => wiring.stop());
      return closed;
    },
  };
}
