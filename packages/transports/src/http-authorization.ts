/**
 * The authorization part of the Streamable HTTP transport, kept in one place: what a request
 * carries (`authorizationHeaders`) and what an HTTP 401/403 answer leads to (`answerChallenge`).
 * The OAuth flow itself (discovery, registration, sign-in, refresh) is `runAuthorization`.
 */
import type http from 'node:http';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { parseBearerChallenge, runAuthorization } from './oauth-authorization.js';
import { accessTokenHeaders, dpopNonceRetry } from './request-authorization.js';
import { TransportError, TransportErrorCode } from './transport-error.js';

/** Authorization runs allowed for one message (a sign-in, then one scope step-up) before giving up. */
const maxAuthorizationsPerMessage = 2;

/** Where a request goes, for request-bound credentials. */
export interface AuthorizedRequest {
  method: string;
  url: URL;
}

/** What to do after a 401/403 answer. */
export type ChallengeOutcome = { retry: true } | { retry: false; error: TransportError };

/** The authorization state of one transport: its provider, and a flow shared by concurrent requests. */
export class HttpAuthorization {
  private authorizing: Promise<void> | undefined;

  constructor(
    private readonly provider: OAuthClientProvider | undefined,
    private readonly serverUrl: URL,
    private readonly serverName: string,
    private readonly describe: (detail: string) => string,
  ) {}

  /** True when an OAuth provider takes part (otherwise static headers carry any credentials). */
  get active(): boolean {
    return this.provider !== undefined;
  }

  /**
   * Adds the access token (Bearer, or DPoP with a fresh proof) to a request's headers (refreshing
   * an expired token first). Undefined when there is nothing to add, known without a turn: no
   * provider, or no token at the last look and no authorization run since (the only way one comes).
   */
  authorizationHeaders(
    headers: Record<string, string>,
    request: AuthorizedRequest,
  ): Promise<void> | undefined {
    if (!this.provider || (this.tokenless && !this.authorizing)) return undefined;
    return this.addTokenHeaders(headers, request, this.provider);
  }

  /** Set when the provider had no token: requests go without one until an authorization runs. */
  private tokenless = false;

  private async addTokenHeaders(
    headers: Record<string, string>,
    request: AuthorizedRequest,
    provider: OAuthClientProvider,
  ): Promise<void> {
    if (this.authorizing) await this.authorizing.catch(() => undefined);
    const expired = (provider as { accessTokenExpired?: () => Promise<boolean> }).accessTokenExpired;
    if (expired && (await expired.call(provider))) {
      // A failed refresh is not fatal here: the server's 401 runs the whole flow.
      await this.authorize({}).catch(() => undefined);
    }
    const added = await accessTokenHeaders(provider, request);
    this.tokenless = added.authorization === undefined && !this.authorizing;
    Object.assign(headers, added);
  }

  /**
   * True when the answer is a DPoP `use_dpop_nonce` challenge: send again, once, with a proof
   * carrying the nonce. False at once for an answer without a `DPoP-Nonce` (nothing to remember).
   */
  nonceRetry(response: http.IncomingMessage): boolean | Promise<boolean> {
    const provider = this.provider;
    if (!provider || response.headers['dpop-nonce'] === undefined) return false;
    return dpopNonceRetry(
      provider,
      { status: response.statusCode ?? 0, headers: response.headers },
      this.serverUrl,
    );
  }

  /**
   * Answers a 401, or a 403 `insufficient_scope`: runs the flow (once for all requests waiting on
   * it) and asks for a retry, or says which error to raise. Undefined for other statuses.
   */
  async answerChallenge(
    response: http.IncomingMessage,
    authorizations: number,
  ): Promise<ChallengeOutcome | undefined> {
    const status = response.statusCode ?? 0;
    if (status !== 401 && status !== 403) return undefined;
    const header = response.headers['www-authenticate'];
    const challenge = parseBearerChallenge(header);
    const stepUp = status === 403 && challenge?.error === 'insufficient_scope';
    if (this.provider && (status === 401 || stepUp) && authorizations < maxAuthorizationsPerMessage) {
      await this.authorize({ ...(header ? { header } : {}), stepUp });
      return { retry: true };
    }
    if (!this.provider) {
      return {
        retry: false,
        error: this.error(
          TransportErrorCode.Unauthorized,
          `the server refused the credentials (HTTP ${status}). Check the bearer token or the Authorization header.`,
          status,
        ),
      };
    }
    return {
      retry: false,
      error: stepUp
        ? this.error(
            TransportErrorCode.InsufficientScope,
            `the server still wants more scopes (HTTP 403 insufficient_scope${challenge?.scope ? `, scope "${challenge.scope}"` : ''}) after ${authorizations} authorization attempts. Check the scopes the authorization server grants this client.`,
            status,
            challenge?.scope ? { scope: challenge.scope } : {},
          )
        : this.error(
            TransportErrorCode.Unauthorized,
            `the server refused the access token (HTTP ${status}) after ${authorizations} authorization attempts. Sign in again with \`switchboard auth ${this.serverName}\`.`,
            status,
          ),
    };
  }

  /** Runs the authorization flow once for all requests that need it at the same time. */
  private authorize(challenge: { header?: string | string[]; stepUp?: boolean }): Promise<void> {
    const provider = this.provider;
    if (!provider) return Promise.resolve();
    this.tokenless = false;
    this.authorizing ??= runAuthorization(provider, {
      serverUrl: this.serverUrl,
      serverName: this.serverName,
      challenge: parseBearerChallenge(challenge.header),
      ...(challenge.stepUp ? { stepUp: true } : {}),
    }).finally(() => {
      this.authorizing = undefined;
    });
    return this.authorizing;
  }

  private error(
    code: TransportErrorCode,
    detail: string,
    status: number,
    context: Record<string, unknown> = {},
  ): TransportError {
    return new TransportError({
      code,
      message: this.describe(detail),
      status,
      context: { server: this.serverName, ...context },
    });
  }
}
