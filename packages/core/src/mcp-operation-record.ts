/**
 * How an MCP operation ends in telemetry, the same on the client and the server (why in core:
 * `load-opentelemetry.ts`): a failure sets `error.type` (and `rpc.response.status_code` for a
 * JSON-RPC error) on the span and on the measurement, and the span's status to ERROR with the
 * message; then the span ends and the duration since the record was created is measured — once,
 * however many ways the operation settles. The span and the histogram are typed structurally (an
 * OpenTelemetry `Span` and `Histogram` fit), so core needs no OpenTelemetry types.
 */
import { McpAttribute } from './mcp-semantic-conventions.js';

/** What a failed operation records. */
export interface McpOperationFailure {
  /** `error.type`: the JSON-RPC code as a string, `tool_error`, `timeout`, a local error's code, … */
  errorType: string;
  /** `rpc.response.status_code`: the JSON-RPC error code, when the peer answered with one. */
  statusCode?: string | undefined;
  /** The span status message (free of secrets). */
  message: string;
}

/** The parts of an OpenTelemetry `Span` an operation's end touches. */
export interface OperationSpanLike {
  setAttribute(key: string, value: string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Histogram` an operation's end touches. */
export interface DurationHistogramLike {
  record(value: number, attributes?: Record<string, unknown>): void;
}

/** What one operation records into. */
export interface McpOperationParts {
  /** The operation's span; undefined when only metrics are recorded. */
  span: OperationSpanLike | undefined;
  /** The duration histogram (seconds); undefined when only spans are recorded. */
  histogram: DurationHistogramLike | undefined;
  /** The measurement's attributes (the low-cardinality ones); not modified. */
  attributes: Readonly<Record<string, unknown>>;
  /** The API's `SpanStatusCode.ERROR`. */
  errorStatus: number;
}

/** One operation's record, timed from its creation. */
export interface McpOperationRecord {
  /** Ends the operation (a success when `failure` is undefined); later calls do nothing. */
  end(failure: McpOperationFailure | undefined): void;
}

/** Starts the record of one operation (its clock starts now). */
export function createMcpOperationRecord(parts: McpOperationParts): McpOperationRecord {
  const started = performance.now();
  let ended = false;
  return {
    end(failure) {
      if (ended) return;
      ended = true;
      const seconds = (performance.now() - started) / 1000;
      const { span } = parts;
      if (span !== undefined) {
        if (failure !== undefined) {
          span.setAttribute(McpAttribute.errorType, failure.errorType);
          if (failure.statusCode !== undefined)
            span.setAttribute(McpAttribute.responseStatusCode, failure.statusCode);
          span.setStatus({ code: parts.errorStatus, message: failure.message });
        }
        span.end();
      }
      parts.histogram?.record(
        seconds,
        failure === undefined
          ? parts.attributes
          : {
              ...parts.attributes,
              [McpAttribute.errorType]: failure.errorType,
              ...(failure.statusCode === undefined
                ? {}
                : { [McpAttribute.responseStatusCode]: failure.statusCode }),
            },
      );
    },
  };
}
