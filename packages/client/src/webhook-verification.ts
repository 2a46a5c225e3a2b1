/**
 * Checking one Events webhook delivery as Standard Webhooks says, with the `standardwebhooks`
 * library: the timestamp within the tolerance (else `WEBHOOK_TIMESTAMP_EXPIRED`: a replay or a
 * clock far off), then the HMAC signature over `id.timestamp.body` under the subscription's secret
 * (else `WEBHOOK_SIGNATURE_INVALID`: tampered, or signed with another secret).
 */
import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ClientError, ClientErrorCode } from './client-error.js';

/** Options of {@link verifyWebhookDelivery}. */
export interface WebhookVerifyOptions {
  /** The subscription's secret (`whsec_…`). */
  secret: string;
  /** Largest distance between the delivery's timestamp and now. @default 300 (the library's) */
  toleranceSeconds?: number;
  /** The current time. @default Date.now() */
  now?: number;
}

/** A verified delivery: its message id, subscription id and parsed body. */
export interface VerifiedDelivery {
  webhookId: string;
  subscriptionId: string | undefined;
  body: Record<string, unknown>;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Verifies a delivery's signature and timestamp; throws a coded `ClientError` when it fails. */
export function verifyWebhookDelivery(
  body: string,
  headers: Record<string, string | string[] | undefined>,
  options: WebhookVerifyOptions,
): VerifiedDelivery {
  const webhookId = header(headers, 'webhook-id') ?? '';
  const timestamp = header(headers, 'webhook-timestamp') ?? '';
  const signature = header(headers, 'webhook-signature') ?? '';
  const seconds = Number(timestamp);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now()) / 1000;
  if (!Number.isFinite(seconds) || Math.abs(now - seconds) > tolerance) {
    throw new ClientError({
      code: ClientErrorCode.WebhookTimestampExpired,
      message: `Webhook delivery ${JSON.stringify(webhookId)} refused: its timestamp ${JSON.stringify(timestamp)} is more than ${tolerance} s from now (a replay, or a clock far off).`,
      context: { webhookId },
    });
  }
  // The library's `verify` holds its own fixed 5-minute window; with the timestamp checked above
  // against ours, compare the library's signature for that timestamp with each one given.
  let matched = false;
  try {
    const expected = Buffer.from(new Webhook(options.secret).sign(webhookId, new Date(seconds * 1000), body));
    matched = signature.split(' ').some((given) => {
      const candidate = Buffer.from(given);
      return candidate.length === expected.length && timingSafeEqual(candidate, expected);
    });
  } catch (error) {
    throw new ClientError({
      code: ClientErrorCode.WebhookSignatureInvalid,
      message: `Webhook delivery ${JSON.stringify(webhookId)} cannot be checked: the secret is not a Standard Webhooks secret ("whsec_" and base64).`,
      context: { webhookId },
      cause: error,
    });
  }
  if (!matched) {
    throw new ClientError({
      code: ClientErrorCode.WebhookSignatureInvalid,
      message: `Webhook delivery ${JSON.stringify(webhookId)} refused: its signature does not match its body under the subscription's secret (tampered, or signed with another secret).`,
      context: { webhookId },
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new ClientError({
      code: ClientErrorCode.WebhookSignatureInvalid,
      message: `Webhook delivery ${JSON.stringify(webhookId)} refused: its signed body is not JSON.`,
      context: { webhookId },
      cause: error,
    });
  }
  return {
    webhookId,
    subscriptionId: header(headers, 'x-mcp-subscription-id'),
    body: (parsed ?? {}) as Record<string, unknown>,
  };
}
