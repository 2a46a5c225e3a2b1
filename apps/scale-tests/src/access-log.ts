/**
 * Reading the access log `renderNginxConfig` sets up: which replica served each request. The log
 * is the balancer's own account, so counting it needs nothing from the replicas.
 */
import { existsSync, readFileSync } from 'node:fs';

/** One logged request. */
export interface AccessLogEntry {
  /** `POST /mcp HTTP/1.1` */
  request: string;
  status: number;
  /** The replica (`host:port`) that answered: the last one nginx tried. */
  upstream: string;
  /** Every replica nginx tried, in order (more than one after a connection failure). */
  tried: string[];
}

const line = /"([^"]*)" (\d{3}) \d+ upstream=(.+?) upstream_status=/;

/** The entries of the access log at `path` (none when it does not exist yet). */
export function readAccessLog(path: string): AccessLogEntry[] {
  if (!existsSync(path)) return [];
  const entries: AccessLogEntry[] = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    const match = line.exec(text);
    if (!match) continue;
    const tried = match[3]!.split(/, | : /);
    entries.push({ request: match[1]!, status: Number(match[2]), upstream: tried.at(-1)!, tried });
  }
  return entries;
}
