/**
 * The cluster most scenarios run: three `switchboard serve --http --session` replicas sharing
 * Redis (a key prefix of their own) and one set of session keys, each with a replica id, over the
 * echo upstream and the work upstream (slow, record, grow).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Cluster, type ClusterOptions, echoServerScript, startCluster } from '../src/index.js';
import { newKey, redisPrefix, redisUrl, writeKeyFile } from './scale-env.js';

export const workServerScript = fileURLToPath(new URL('../fixtures/work-server.mjs', import.meta.url));

/** A running replica cluster and what it was started with. */
export interface ReplicaCluster extends Cluster {
  dir: string;
  prefix: string;
  redis: ReturnType<typeof redisPrefix>;
  /** The work upstream's record file (one line per `record` call that ran). */
  recordFile: string;
  /** Stops the cluster and removes its keys and files. */
  dispose(): Promise<void>;
}

/** Options: extra serve flags, another Redis, cluster options. */
export interface ReplicaClusterOptions extends Omit<ClusterOptions, 'serveArgs' | 'mcpServers'> {
  extraArgs?: string[];
  /** @default the services' Redis */
  redisUrl?: string;
  /** Bearer tokens with their principals (`--tokens-file`). @default none: no auth */
  tokens?: Array<{ principal: string; token: string }>;
}

/** Starts the replica cluster. */
export async function startReplicaCluster(options: ReplicaClusterOptions = {}): Promise<ReplicaCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'scale-replicas-'));
  const url = options.redisUrl ?? redisUrl;
  const redis = redisPrefix(url);
  const keyFile = writeKeyFile(join(dir, 'session-keys'), [newKey()]);
  const recordFile = join(dir, 'records.txt');
  const { extraArgs = [], redisUrl: _ignored, tokens, ...clusterOptions } = options;
  const tokenArgs: string[] = [];
  if (tokens !== undefined) {
    const tokensFile = join(dir, 'tokens');
    writeFileSync(tokensFile, tokens.map(({ principal, token }) => `${principal} ${token}`).join('\n'));
    tokenArgs.push('--tokens-file', tokensFile);
  }
  const cluster = await startCluster({
    replicas: 3,
    ...clusterOptions,
    // Tools these servers add at run time are let through with a warning (`pin: 'warn'`): the default
    // (`'block'`) quarantines a new tool on a known server until a person approves it, and these tests
    // are about the change reaching every replica, not about its review.
    mcpServers: {
      echo: { command: process.execPath, args: [echoServerScript], trust: { pin: 'warn' } },
      work: {
        command: process.execPath,
        args: [workServerScript],
        env: { RECORD_FILE: recordFile },
        trust: { pin: 'warn' },
      },
    },
    serveArgs: ({ id }) => [
      '--session',
      '--redis',
      url,
      '--redis-prefix',
      redis.prefix,
      '--session-key-file',
      keyFile,
      '--replica-id',
      id,
      // `record` is destructive: the gateway hides such tools unless told they may be served.
      '--allow-approval-tools',
      ...tokenArgs,
      ...extraArgs,
    ],
  });
  return {
    ...cluster,
    dir,
    prefix: redis.prefix,
    redis,
    recordFile,
    async dispose() {
      await cluster.stop();
      await redis.clear().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
