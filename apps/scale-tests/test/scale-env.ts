/**
 * What the scenarios share besides the cluster: the Redis the services script started (each
 * scenario on a key prefix of its own, removed afterwards), session key files, and bounded polling.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';

export const redisUrl = process.env.SWITCHBOARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const postgresUrl =
  process.env.SWITCHBOARD_TEST_POSTGRES_URL ??
  'postgres://switchboard:switchboard@127.0.0.1:5432/switchboard';

/** A fresh key prefix and a client to inspect it; `clear()` deletes every key under it. */
export function redisPrefix(url = redisUrl): {
  prefix: string;
  redis: Redis;
  keys(): Promise<string[]>;
  clear(): Promise<void>;
} {
  const prefix = `scale-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  // A scenario may stop this Redis on purpose: the inspector reconnects quietly.
  redis.on('error', () => {});
  const keys = async () => {
    const found: string[] = [];
    let cursor = '0';
    // Bounded: a scan of a test prefix ends in a few rounds.
    for (let round = 0; round < 10_000; round++) {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      found.push(...batch);
      cursor = next;
      if (cursor === '0') break;
    }
    return found;
  };
  return {
    prefix,
    redis,
    keys,
    clear: async () => {
      const all = await keys();
      for (let index = 0; index < all.length; index += 500) await redis.del(...all.slice(index, index + 500));
      redis.disconnect();
    },
  };
}

/** Writes a session key file with `keys` (base64, first seals); returns its path. */
export function writeKeyFile(path: string, keys: Buffer[]): string {
  writeFileSync(
    path,
    `# session keys: the first seals, all open\n${keys.map((key) => key.toString('base64')).join('\n')}\n`,
  );
  return path;
}

/** A new random 32-byte key. */
export const newKey = (): Buffer => randomBytes(32);

/** Polls `probe` every `everyMs` until it returns true or `withinMs` passed; returns the ms it took, or -1. */
export async function within(withinMs: number, probe: () => Promise<boolean>, everyMs = 50): Promise<number> {
  const started = performance.now();
  while (performance.now() - started <= withinMs) {
    if (await probe()) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return -1;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
