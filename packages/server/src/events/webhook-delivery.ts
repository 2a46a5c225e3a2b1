/**
 * One webhook POST of the Events extension, signed as Standard Webhooks says (the `standardwebhooks`
 * library: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `id.timestamp.body`), with `X-MCP-Subscription-Id` naming the subscription. The endpoint
 * verification handshake is a signed `{type: "verification", challenge}` the endpoint must echo.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Where and how a subscription's messages are posted. */
export interface WebhookTarget {
  url: string;
  /** `whsec_<base64>` */
  secret: string;
  subscriptionId: string;
  timeoutMs: number;
}

/** The outcome of one POST: the HTTP status, or the network failure. */
export type PostOutcome = { status: number; body: string } | { status: 0; failure: string };

/** Posts `body` to the target, signed with a fresh timestamp and message id `messageId`. */
export async function postSigned(
  target: WebhookTarget,
  messageId: string,
  body: string,
): Promise<PostOutcome> {
  const timestamp = new Date();
  const signature = new Webhook(target.secret).sign(messageId, timestamp, body);
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
        'x-mcp-subscription-id': target.subscriptionId,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, failure: error instanceof Error ? error.name : 'network failure' };
  }
}

/** Why an endpoint failed verification (`data.reason` of the -32015 error). */
export type VerificationFailure = 'unreachable' | 'http_4xx' | 'http_5xx' | 'challenge_failed';

/** Proves the endpoint wants the deliveries: it must answer 2xx echoing the challenge. */
export async function verifyEndpoint(target: WebhookTarget): Promise<VerificationFailure | undefined> {
  const challenge = randomBytes(24).toString('base64url');
  const outcome = await postSigned(
    target,
    `msg_verification_${randomBytes(12).toString('hex')}`,
    JSON.stringify({ type: 'verification', challenge }),
  );
  if (!('body' in outcome)) return 'unreachable';
  if (outcome.status >= 500) return 'http_5xx';
  if (outcome.status >= 400) return 'http_4xx';
  if (outcome.status < 200 || outcome.status >= 300) return 'challenge_failed';
  let echoed: unknown;
  try {
    echoed = (JSON.parse(outcome.body) as { challenge?: unknown }).challenge;
  } catch {
    return 'challenge_failed';
  }
  const expected = Buffer.from(challenge);
  const got = Buffer.from(typeof echoed === 'string' ? echoed : '');
  return got.length === expected.length && timingSafeEqual(got, expected) ? undefined : 'challenge_failed';
}

/** Whether `secret` is a Standard Webhooks secret: `whsec_` and 24 to 64 bytes of base64. */
export function isWebhookSecret(secret: unknown): secret is string {
  if (typeof secret !== 'string' || !secret.startsWith('whsec_')) return false;
  const encoded = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}
