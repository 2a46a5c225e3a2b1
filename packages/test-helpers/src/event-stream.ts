/**
 * A Server-Sent Events stream read as it comes, for tests that wait on a server's events rather
 * than on time: every event's `data` parsed as JSON, and `next(predicate)` resolving with the
 * first event (already received or still to come) that the predicate accepts.
 */
import { request as httpRequest } from 'node:http';

/** The events of one stream so far, and a wait for the next one that matters. */
export interface EventStreamReader<T> {
  readonly received: T[];
  /** Resolves with the first event (already received or to come) that `predicate` accepts. */
  next<U extends T>(predicate: (event: T) => event is U, timeoutMs?: number): Promise<U>;
  close(): void;
}

/** Opens `GET url` with `headers` (an `accept: text/event-stream` is added) and reads its events. */
export function openEventStream<T>(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamReader<T>> {
  return new Promise((resolve, reject) => {
    const received: T[] = [];
    const waiters = new Set<() => void>();
    const request = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`GET ${new URL(url).pathname} answered ${response.statusCode}`));
        return;
      }
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data) received.push(JSON.parse(data) as T);
          end = buffer.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      });
      resolve({
        received,
        next<U extends T>(predicate: (event: T) => event is U, timeoutMs = 30_000) {
          return new Promise<U>((resolveNext, rejectNext) => {
            const check = () => {
              const found = received.find(predicate);
              if (!found) return;
              waiters.delete(check);
              clearTimeout(timer);
              resolveNext(found);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rejectNext(
                new Error(
                  `no such event within ${timeoutMs} ms; received: ${received.map((event) => JSON.stringify(event).slice(0, 80)).join(', ')}`,
                ),
              );
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    request.end();
  });
}
