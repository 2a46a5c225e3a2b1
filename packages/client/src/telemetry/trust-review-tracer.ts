/**
 * The contract of a listing review's tracer, apart from its OpenTelemetry implementation
 * (`trust-tracing.ts`): the connection's trust names only this, so the published types of the main
 * entry do not reach `@opentelemetry/api`, an optional peer whose types a user may not have.
 */
import type { ToolTrustVerdict } from '@switchboard/core';

/** Traces the reviews of a connection's listings: runs `review` for `server`'s `listed` tools. */
export type TrustReviewTracer = (
  server: string,
  listed: number,
  review: () => Promise<ToolTrustVerdict[]>,
) => Promise<ToolTrustVerdict[]>;
