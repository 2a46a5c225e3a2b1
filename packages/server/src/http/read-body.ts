/**
 * Reads a request body up to a limit. The callback runs inside the request's `end` event (no
 * promise turn between the last byte and the work on it); a body past the limit is a 413 failure,
 * a client that went away mid-body gives `undefined`.
 */
import type { IncomingMessage } from 'node:http';
import { JsonRpcErrorCode } from '../errors/json-rpc-error-code.js';
import { failure, type GuardResult } from './http-failure.js';

function tooLarge(limit: number) {
  return failure(413, JsonRpcErrorCode.InvalidRequest, `Request body larger than ${limit} bytes.`, {
    headers: { connection: 'close' },
  });
}

/** Reads the body; `done` gets it, a 413 failure, or `undefined` when the client went away. */
export function readBody(
  request: IncomingMessage,
  limit: number,
  done: (result: GuardResult<{ body: Buffer }> | undefined) => void,
): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    done(tooLarge(limit));
    return;
  }
  // Usually the whole body is one chunk: no array until a second one comes.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  request.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finished = true;
      request.resume();
      done(tooLarge(limit));
      return;
    }
    if (first === undefined) first = chunk;
    else if (more === undefined) more = [first, chunk];
    else more.push(chunk);
  });
  request.on('end', () => {
    if (finished) return;
    finished = true;
    done({ ok: true, body: more !== undefined ? Buffer.concat(more, size) : (first ?? Buffer.alloc(0)) });
  });
  // A client that goes away mid-body never sends 'end': give up, so shutdown does not wait for it.
  // 'close' follows every error too, and a request without an 'error' listener never throws one.
  request.on('close', () => {
    if (finished) return;
    finished = true;
    done(undefined);
  });
}
