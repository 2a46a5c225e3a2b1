/**
 * Where a request's own notifications go. Each transport hands one in with the request (the HTTP
 * response stream, the stdio connection); a request whose answer streams nothing (a JSON answer,
 * REST, `callTool`, a task running on after its call) gets the silent one.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/server';

/** Where a request's own notifications (progress, log) and stream controls go. */
export interface RequestChannel {
  /** Sends a notification that belongs to this request. */
  notify(notification: JSONRPCNotification): void;
  /** Closes the response stream now (2025 sessions with an event store: the client resumes with `Last-Event-ID`). */
  closeStream?(): void;
}

/** A channel that drops everything (JSON answers, REST, `callTool`). */
export const silentChannel: RequestChannel = { notify() {} };
