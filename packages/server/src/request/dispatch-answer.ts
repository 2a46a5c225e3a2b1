/**
 * What the dispatcher hands back for a request. Here beside the request rather than in dispatch/
 * because the request's telemetry (part of the scope the dispatcher runs with) follows the answer
 * too: naming it from dispatch/ tied the dispatcher, its scope and the telemetry into one loop.
 */
import type { JSONRPCResponse } from '@modelcontextprotocol/server';

/**
 * A request's answer: the response (at once when the handler was synchronous), or `undefined`
 * when the request was cancelled (the spec: no response to a cancelled request).
 */
export type DispatchAnswer = JSONRPCResponse | undefined | Promise<JSONRPCResponse | undefined>;
