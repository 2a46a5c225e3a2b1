/**
 * Shapes of secrets a tool result should not hand to a model: vendor tokens with documented
 * prefixes, private keys, JWTs, bearer headers, passwords in URLs. A short table rather than a
 * scanner such as secretlint: those are file-oriented, asynchronous and Node-only, while this runs
 * on every tool result, in core (which also runs in browsers). Prefix-anchored shapes keep false
 * alarms rare; a high-entropy guess would redact hashes and ids.
 */

/** One kind of secret and how to find it. */
export interface SecretPattern {
  /** The kind (`github-token`), shown in a redaction as `[REDACTED:github-token]`. */
  kind: string;
  /** A global pattern; the first group, when present, is the secret part of the match. */
  pattern: RegExp;
}

/** The built-in secret shapes. */
export const defaultSecretPatterns: readonly SecretPattern[] = [
  {
    kind: 'private-key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
  },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g },
  { kind: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'stripe-key', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?!ant-)(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer-token', pattern: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)/g },
  { kind: 'url-password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:([^/\s@]+)@/g },
];
