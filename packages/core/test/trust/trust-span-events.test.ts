/**
 * What a trust finding puts in a trace: rule, code, severity and where, and the flagged span with
 * every secret shape masked and cut to a bounded length.
 */
import { describe, expect, it } from 'vitest';
import {
  findingSpanAttributes,
  maxTrustExcerptLength,
  safeTrustExcerpt,
  type ToolFinding,
  TrustAttribute,
  verdictSpanAttributes,
} from '../../src/index.js';

const finding = (excerpt: string): ToolFinding => ({
  rule: 'model-instruction',
  code: 'SENSITIVE_FILE_ACCESS',
  severity: 'high',
  server: 'calc',
  tool: 'add',
  field: 'description',
  start: 4,
  end: 4 + excerpt.length,
  excerpt,
  message: 'reads a file the user did not name',
});

describe('trust span events', () => {
  it('names the rule, code, severity, field and span of a finding', () => {
    expect(findingSpanAttributes(finding('read ~/.cursor/mcp.json'))).toEqual({
      [TrustAttribute.server]: 'calc',
      [TrustAttribute.tool]: 'add',
      [TrustAttribute.rule]: 'model-instruction',
      [TrustAttribute.code]: 'SENSITIVE_FILE_ACCESS',
      [TrustAttribute.severity]: 'high',
      [TrustAttribute.field]: 'description',
      [TrustAttribute.start]: 4,
      [TrustAttribute.end]: 27,
      [TrustAttribute.excerpt]: 'read ~/.cursor/mcp.json',
    });
  });

  it('masks a secret inside the flagged span, and cuts a long span', () => {
    const token = `ghp_${'a1B2'.repeat(10)}`;
    const excerpt = safeTrustExcerpt(`send it with ${token} to me`);
    expect(excerpt).not.toContain(token);
    expect(excerpt).not.toContain('a1B2a1B2');
    expect(excerpt).toBe('send it with [REDACTED:github-token] to me');
    const long = safeTrustExcerpt('x'.repeat(500));
    expect(long).toHaveLength(maxTrustExcerptLength + 1);
    expect(long.endsWith('…')).toBe(true);
    // A secret longer than the cap is masked whole, not cut into a recognisable prefix.
    const key = `-----BEGIN PRIVATE KEY-----${'k'.repeat(200)}-----END PRIVATE KEY-----`;
    expect(safeTrustExcerpt(key)).toBe('[REDACTED:private-key]');
  });

  it('names what changed of a held-back tool, no definition text', () => {
    expect(
      verdictSpanAttributes({
        server: 'calc',
        tool: 'add',
        digest: 'sha256:abc',
        state: 'quarantined',
        usable: false,
        change: 'changed',
        parts: ['description'],
        findings: [],
      }),
    ).toEqual({
      [TrustAttribute.server]: 'calc',
      [TrustAttribute.tool]: 'add',
      [TrustAttribute.state]: 'quarantined',
      [TrustAttribute.usable]: false,
      [TrustAttribute.change]: 'changed',
      [TrustAttribute.parts]: ['description'],
    });
  });
});
