/**
 * `switchboard serve`: the configured servers as one MCP gateway, over stdio (default) or
 * Streamable HTTP. With `--select`, the gateway serves `discover_tools` and the tools it finds
 * instead of every tool, so a model with a small context can still reach hundreds of them.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpConnection } from '@switchboard/client';
import {
  createGateway,
  type Gateway,
  type GatewayWebhookOptions,
  gatewayConnectOptions,
} from '@switchboard/gateway';
import { type ApprovalPrompt, approvalPrompts, serve as serveMcp } from '@switchboard/server';
import { createToolSelector } from '@switchboard/tool-selection';
import type { CommandContext } from '../cli-command.js';
import { cliEmbedder, cliVectorIndex } from '../cli-embedder.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { showsLogLevel } from '../cli-log-level.js';
import { cliLogger, connectServers, loadCliConfig } from '../cli-session.js';
import { cliVersion } from '../cli-version.js';
import { registryStoreOf } from '../registry-store-of.js';
import { didYouMean } from '../suggest.js';
import { replicaFlags } from './serve-replica-flags.js';
import { replicaSetupOf } from './serve-replica-options.js';
import { reportFailedServers } from './server-failures.js';

/**
 * Who asks before a tool that needs approval runs: `--approval`, or the deprecated
 * `--allow-approval-tools` (which served such tools without asking: `host`).
 */
function approvalPromptOf(context: CommandContext): ApprovalPrompt {
  const given = context.values.approval;
  const legacy = context.values['allow-approval-tools'] === true;
  if (given !== undefined) {
    const prompt = approvalPrompts.find((name) => name === given);
    if (prompt === undefined) {
      throw new UsageError(
        `--approval takes ${approvalPrompts.join(', ')}, not '${String(given)}'.${didYouMean(String(given), [...approvalPrompts])}`,
      );
    }
    if (legacy && prompt !== 'host') {
      throw new UsageError(
        `--allow-approval-tools means --approval host; it cannot be given with --approval ${prompt}.`,
      );
    }
    return prompt;
  }
  if (!legacy) return 'auto';
  if (showsLogLevel(context.io.env, 'warn')) {
    context.io.stderr.write(
      "switchboard: --allow-approval-tools is deprecated: tools that need approval are served by default now (the client is asked where it can be); it means '--approval host'.\n",
    );
  }
  return 'host';
}

/**
 * The banner's count: what `tools/list` answers now (so a client sees the number the banner says),
 * and the upstream tools the approval rules keep out of it.
 */
function servingLine(
  gateway: Gateway,
  connection: McpConnection,
  options: { where: string; selecting: boolean; prompt: ApprovalPrompt },
): string {
  const listed = gateway.listTools().length;
  const servers = Object.keys(connection.status()).length;
  const upstream = connection.registry.list();
  const hidden = upstream.filter((tool) => !gateway.isServed(tool)).length;
  const why =
    options.prompt === 'hide' ? 'denied, or needing approval (--approval hide)' : 'denied by approval rules';
  // The URL stays the last word before a space: scripts read it with `on (\S+)`.
  return `serving ${listed} tool${listed === 1 ? '' : 's'} from ${servers} server${servers === 1 ? '' : 's'} ${options.where} (${
    options.selecting
      ? `discover_tools mode: it finds among ${upstream.length - hidden} upstream tools; `
      : ''
  }approval ${options.prompt}${hidden > 0 ? `; ${hidden} more ${why}, not served` : ''})`;
}

/**
 * Where the gateway's webhook subscriptions may post. `--allow-local-webhooks` lifts the default
 * callback policy (https, public addresses) for a developer's local receiver. (The subscriptions
 * themselves live in the gateway's `cluster`: Redis with `--redis`, so one made through any
 * replica is delivered by whichever replica holds its lease, and outlives the one it was made on.)
 */
function webhookOptionsOf(allowLocal: boolean): GatewayWebhookOptions {
  return allowLocal
    ? { allowCallback: (url: URL) => url.protocol === 'https:' || url.protocol === 'http:' }
    : {};
}

/** Runs `switchboard serve` (its flags and help: `serveCommandSpec`). */
export async function runServeCommand(context: CommandContext): Promise<number> {
  const { values } = context;
  if (context.positionals.length) throw new UsageError(`unexpected argument '${context.positionals[0]}'.`);
  const port = values.port === undefined ? 3000 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes 0–65535.');
  const httpOnly = ['port', 'host', 'token', 'session', 'allow-local-webhooks', ...Object.keys(replicaFlags)];
  const misplaced = httpOnly.find((flag) => values[flag] !== undefined && values[flag] !== false);
  if (!values.http && misplaced !== undefined) {
    throw new UsageError(`--${misplaced} needs --http (replicas, tokens and sessions are HTTP things).`);
  }
  const token = typeof values.token === 'string' ? values.token : context.io.env.SWITCHBOARD_TOKEN;
  const logger = cliLogger(context);
  const approvalPrompt = approvalPromptOf(context);
  // Before any server starts: a bad variable is a usage error with nothing to close.
  const ranking = values.select
    ? { embedder: cliEmbedder(context, logger), index: cliVectorIndex(context) }
    : undefined;

  const config = await loadCliConfig(context);
  // The gateway's handlers: an upstream's elicitation, sampling and roots requests cross to the
  // downstream client of the call that caused them.
  const stored = context.io.env.SWITCHBOARD_STORE === 'off' ? undefined : await registryStoreOf(context);
  const connection = await connectServers(context, config.mcpServers, {
    ...gatewayConnectOptions(),
    ...(stored ? { store: stored.store } : {}),
    ...(stored?.tokenStore ? { auth: { store: stored.tokenStore } } : {}),
  });
  reportFailedServers(context, connection.status());
  // Replicas sharing a PostgreSQL store hear of each other's catalogue changes: a server whose
  // tools another replica saw change is re-listed here too.
  const stopFollowing = stored?.postgres?.onChange((change) => {
    if (change.local || change.kind !== 'tools' || !connection.servers.includes(change.server)) return;
    connection.refreshTools(change.server).catch((error: unknown) => {
      logger.warn(
        `could not re-list the tools of '${change.server}' after another replica's change: ${String(error)}`,
      );
    });
  });
  const selector = ranking
    ? createToolSelector({
        registry: connection.registry,
        embedder: ranking.embedder,
        ...(ranking.index === undefined ? {} : { index: ranking.index }),
        // Replicas share embeddings through the database: a restart embeds only changed tools.
        ...(stored?.postgres ? { embeddingStore: stored.postgres.embeddingStore } : {}),
        logger,
      })
    : undefined;
  const skills = typeof values.skills === 'string' ? resolve(context.io.cwd, values.skills) : undefined;
  if (skills !== undefined && !existsSync(skills)) {
    throw new UsageError(
      `--skills: no folder at ${skills}. Give a folder of skill folders, each with a SKILL.md.`,
    );
  }
  // A replica is ready while the database it shares answers (and Redis: the server checks that).
  const postgres = stored?.postgres;
  const replica = await replicaSetupOf(
    context,
    postgres ? [{ name: 'registry store', check: () => postgres.ping() }] : [],
    logger,
  );
  const gateway = await createGateway({
    ...(replica.requestState ? { requestState: replica.requestState } : {}),
    webhooks: webhookOptionsOf(values['allow-local-webhooks'] === true),
    // With --redis, a 2025 client's tasks/list through any replica lists the tasks it started through any.
    ...(replica.cluster !== undefined ? { cluster: replica.cluster } : {}),
    clients: connection,
    ...(selector ? { selector } : {}),
    ...(skills !== undefined ? { skills: { directory: skills } } : {}),
    approvalPrompt,
    // The inspector knows a gateway by its default name, 'switchboard-gateway': only the version is ours.
    version: cliVersion(),
    logger,
  });
  let handle: Awaited<ReturnType<typeof serveMcp>>;
  try {
    handle = await serveMcp(gateway, {
      transport: values.http
        ? {
            type: 'http',
            port,
            ...(typeof values.host === 'string' ? { host: values.host } : {}),
            ...(token ? { auth: { type: 'bearer' as const, token } } : {}),
            session: values.session === true,
            ...replica.transport,
          }
        : 'stdio',
    });
  } catch (error) {
    await replica.close();
    await gateway.close();
    await selector?.close();
    await connection.close();
    await stored?.store.close();
    throw error;
  }
  if (selector && stored?.postgres) {
    // Replicas share embeddings: say how much of the index the database already had.
    await selector.ready();
    const { computed, reused } = selector.info().embeddings;
    context.io.stderr.write(
      `switchboard: tool index from the shared store: ${reused} embeddings reused, ${computed} computed\n`,
    );
  }
  context.io.stderr.write(
    `switchboard: ${servingLine(gateway, connection, {
      where: handle.url ? `on ${handle.url}` : 'over stdio',
      selecting: selector !== undefined,
      prompt: approvalPrompt,
    })}${handle.replicaId ? ` as replica ${handle.replicaId}` : ''}${
      replica.sharedStateLocation ? `, shared state in ${replica.sharedStateLocation}` : ''
    }\n`,
  );

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // A stdio gateway ends when its client closes our stdin.
    if (!values.http) process.stdin.once('end', stop);
  });
  // close() drains: the listener closes (the balancer fails over), calls in flight finish.
  await handle.close();
  await replica.close();
  stopFollowing?.();
  await gateway.close();
  await selector?.close();
  await connection.close();
  // The store is ours, not the connection's: a PostgreSQL pool left open keeps the process alive.
  await stored?.store.close();
  return ExitCode.ok;
}
