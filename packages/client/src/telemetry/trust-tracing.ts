/**
 * Tool trust in the connection's traces: each review of a server's listing (on connect, on
 * `list_changed`, on a refresh) is an INTERNAL span `trust review {server}`, a child of the active
 * context, with one event per finding on the listed tools (rule, code, severity, field, the flagged
 * span masked and cut: core's `trust-span-events.ts`) and one per tool held back from the model.
 * With no provider registered, or without `@opentelemetry/api`, the review runs untraced.
 */
import {
  createTelemetryInstruments,
  findingSpanAttributes,
  type TelemetrySetting,
  TrustAttribute,
  TrustSpanEvent,
  trustReviewSpanName,
  verdictSpanAttributes,
} from '@switchboard/core';
import type { OpenTelemetryApi } from './open-telemetry-api.js';
import type { TrustReviewTracer } from './trust-review-tracer.js';

/** The tracer of trust reviews; `api` (a promise of the loaded API) undefined or `setting` false: none. */
export function createTrustReviewTracer(
  api: Promise<OpenTelemetryApi | undefined> | undefined,
  setting: TelemetrySetting | undefined,
): TrustReviewTracer {
  if (api === undefined || setting === false) return (_server, _listed, review) => review();
  let instruments: ReturnType<typeof createTelemetryInstruments<OpenTelemetryApi>> | undefined;
  return async (server, listed, review) => {
    const loaded = await api;
    if (loaded === undefined) return review();
    instruments ??= createTelemetryInstruments(loaded, setting ?? {}, {
      name: '@switchboard/client',
      // Only the tracer is used here; the histogram of requests is the request tracing's.
      metric: 'switchboard.trust.review.duration',
      description: 'Duration of tool trust reviews.',
    });
    const tracer = instruments.tracer();
    if (tracer === undefined) return review();
    const span = tracer.startSpan(trustReviewSpanName(server), {
      kind: loaded.SpanKind.INTERNAL,
      attributes: { [TrustAttribute.server]: server, [TrustAttribute.listed]: listed },
    });
    try {
      const verdicts = await review();
      let findings = 0;
      let heldBack = 0;
      for (const verdict of verdicts) {
        for (const finding of verdict.findings) {
          findings++;
          span.addEvent(TrustSpanEvent.finding, findingSpanAttributes(finding));
        }
        if (verdict.state !== 'trusted') {
          if (!verdict.usable) heldBack++;
          span.addEvent(TrustSpanEvent.quarantined, verdictSpanAttributes(verdict));
        }
      }
      span.setAttributes({ [TrustAttribute.findings]: findings, [TrustAttribute.heldBack]: heldBack });
      return verdicts;
    } catch (error) {
      span.setStatus({ code: loaded.SpanStatusCode.ERROR, message: (error as Error).name });
      throw error;
    } finally {
      span.end();
    }
  };
}
