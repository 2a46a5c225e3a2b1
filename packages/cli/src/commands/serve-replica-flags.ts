/**
 * The flags that make `switchboard serve --http` one replica of several (see serve-replica-options.ts,
 * which turns them into the HTTP transport's options). Apart from that file so that the command's
 * spec names them without loading @switchboard/server.
 */

/** The replica flags, for the `serve` command's option table. */
export const replicaFlags = {
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
  'session-key-file': { type: 'string' },
  'replica-id': { type: 'string' },
  'tokens-file': { type: 'string' },
  'rate-limit': { type: 'string' },
  'session-idle-timeout': { type: 'string' },
  'drain-timeout': { type: 'string' },
} as const;
