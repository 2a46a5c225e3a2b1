import { describe, expect, it } from 'vitest';
import { parseBearerChallenge } from '../src/index.js';

describe('parseBearerChallenge', () => {
  it('reads error, scope and resource_metadata, quoted or not', () => {
    expect(
      parseBearerChallenge(
        'Bearer error="insufficient_scope", scope="read write", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: 'read write',
      resourceMetadata: 'https://a.example/.well-known/oauth-protected-resource/mcp',
    });
    expect(parseBearerChallenge('Bearer realm=example, error=invalid_token')).toEqual({
      error: 'invalid_token',
    });
  });

  it('finds the Bearer challenge among others and handles escaped quotes', () => {
    expect(parseBearerChallenge('Basic realm="x", Bearer error_description="say \\"hi\\""')).toEqual({
      errorDescription: 'say "hi"',
    });
    expect(parseBearerChallenge(['Basic realm="x"', 'Bearer scope="a"'])).toEqual({ scope: 'a' });
  });

  it('answers undefined without a Bearer challenge', () => {
    expect(parseBearerChallenge(undefined)).toBeUndefined();
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge('Bearer')).toEqual({});
  });
});
