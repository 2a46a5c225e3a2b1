/**
 * The scale-test harness: a cluster of Switchboard replicas behind nginx, and what the scenarios
 * read from it. Private to this repository (the package is not published).
 */
export { type AccessLogEntry, readAccessLog } from './access-log.js';
export { type Cluster, type ClusterOptions, cliBin, echoServerScript, startCluster } from './cluster.js';
export { type NginxBalancer, nginxBinary } from './nginx-balancer.js';
export { isRunning, stopProcess, waitForHttp } from './process-control.js';
export type { Replica } from './replica.js';
