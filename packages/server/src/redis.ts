/** `@switchboard/server/redis`: the Redis `ClusterState` (needs the optional peer `ioredis`). */
export type { RedisClusterState, RedisClusterStateOptions } from './cluster/redis-cluster-state.js';
export { createRedisClusterState } from './cluster/redis-cluster-state.js';
