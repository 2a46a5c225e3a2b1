/** Waiting until a server the bench started answers over HTTP. */
import { request as httpRequest } from 'node:http';

/** Resolves once `url` answers a GET (any status); throws after 30 s. */
export async function waitForHttp(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const request = httpRequest(url, { method: 'GET' }, (response) => {
        response.resume();
        resolve(true);
      });
      request.on('error', () => resolve(false));
      request.end();
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`bench: ${url} did not come up`);
}
