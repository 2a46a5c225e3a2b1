import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../src/index.js';
import { createApprovalPolicy, SwitchboardError } from '../src/index.js';

const request = (
  name: string,
  annotations?: ApprovalRequest['annotations'],
  server = 'fs',
): ApprovalRequest => ({
  name: `mcp__${server}__${name}`,
  server,
  originalName: name,
  ...(annotations ? { annotations } : {}),
});

describe('createApprovalPolicy', () => {
  it("'annotations' (default) runs read-only and non-destructive tools, asks for the rest", () => {
    const policy = createApprovalPolicy();
    expect(policy.specificationVersion).toBe('v1');
    expect(policy.decide(request('read_file', { readOnlyHint: true })).decision).toBe('allow');
    // server-memory's create_entities: not read-only, not destructive.
    expect(policy.decide(request('create', { readOnlyHint: false, destructiveHint: false })).decision).toBe(
      'allow',
    );
    const destructive = policy.decide(request('write_file', { readOnlyHint: false, destructiveHint: true }));
    expect(destructive).toEqual({ decision: 'ask', reason: 'destructive (destructiveHint: true)' });
    const bare = policy.decide(request('mystery'));
    expect(bare.decision).toBe('ask');
    expect(bare.reason).toMatch(/MCP assumes/);
    // readOnlyHint wins: destructiveHint is meaningless for a read-only tool.
    expect(policy.decide(request('x', { readOnlyHint: true, destructiveHint: true })).decision).toBe('allow');
    expect(policy.decide(request('x', { openWorldHint: false })).decision).toBe('ask');
  });

  it("'always' and 'never'", () => {
    expect(
      createApprovalPolicy({ mode: 'always' }).decide(request('read', { readOnlyHint: true })).decision,
    ).toBe('ask');
    expect(
      createApprovalPolicy({ mode: 'never' }).decide(request('rm', { destructiveHint: true })).decision,
    ).toBe('allow');
  });

  it('a custom function: true runs, false refuses, ask asks; it sees the tool', () => {
    const seen: unknown[] = [];
    const policy = createApprovalPolicy({
      mode: (tool) => {
        seen.push(tool);
        if (tool.originalName.startsWith('get')) return true;
        if (tool.server === 'prod') return false;
        return 'ask';
      },
    });
    expect(policy.decide(request('get_x')).decision).toBe('allow');
    expect(policy.decide(request('drop', undefined, 'prod'))).toEqual({
      decision: 'deny',
      reason: 'denied by the custom policy',
    });
    expect(policy.decide(request('put', { readOnlyHint: false })).decision).toBe('ask');
    expect(seen[2]).toEqual({
      name: 'mcp__fs__put',
      server: 'fs',
      originalName: 'put',
      annotations: { readOnlyHint: false },
    });
    const full = createApprovalPolicy({ mode: () => ({ decision: 'deny', reason: 'weekend freeze' }) });
    expect(full.decide(request('x'))).toEqual({ decision: 'deny', reason: 'weekend freeze' });
  });

  it('a custom function that throws or returns nonsense asks instead', () => {
    const throwing = createApprovalPolicy({
      mode: () => {
        throw new Error('policy store down');
      },
    });
    expect(throwing.decide(request('x'))).toEqual({
      decision: 'ask',
      reason: 'the custom policy threw (policy store down); asking instead',
    });
    const odd = createApprovalPolicy({ mode: () => 'maybe' as never });
    expect(odd.decide(request('x')).decision).toBe('ask');
    expect(odd.decide(request('x')).reason).toMatch(/returned "maybe"/);
  });

  it('allow/deny globs per server: deny wins, allow runs, "*" applies everywhere', () => {
    const policy = createApprovalPolicy({
      mode: 'always',
      servers: {
        fs: { allow: ['read_*', 'list_*', 'write_file'], deny: ['write_*'] },
        '*': { deny: ['*delete*'], allow: ['get_?'] },
      },
    });
    expect(policy.decide(request('read_file')).decision).toBe('allow');
    expect(policy.decide(request('read_file')).reason).toBe('matches allow glob "read_*" of server "fs"');
    const denied = policy.decide(request('write_file'));
    expect(denied).toEqual({ decision: 'deny', reason: 'matches deny glob "write_*" of server "fs"' });
    expect(policy.decide(request('delete_entities', { readOnlyHint: true }, 'memory'))).toEqual({
      decision: 'deny',
      reason: 'matches deny glob "*delete*" of every server',
    });
    expect(policy.decide(request('get_a', undefined, 'other')).decision).toBe('allow');
    expect(policy.decide(request('get_ab', undefined, 'other')).decision).toBe('ask');
    // Globs also match the public name; regex characters in globs are literal.
    expect(
      createApprovalPolicy({ servers: { fs: { deny: ['mcp__fs__*'] } } }).decide(request('anything'))
        .decision,
    ).toBe('deny');
    expect(
      createApprovalPolicy({ servers: { fs: { allow: ['a.b'] } } }).decide(
        request('axb', { destructiveHint: true }),
      ).decision,
    ).toBe('ask');
  });

  it('rejects bad options with clear errors', () => {
    expect(() => createApprovalPolicy({ mode: 'sometimes' as never })).toThrow(/unknown mode "sometimes"/);
    try {
      createApprovalPolicy({ servers: { fs: { allow: 'read_*' as never } } });
      expect.unreachable();
    } catch (error) {
      expect(SwitchboardError.hasCode(error, 'INVALID_ARGUMENT')).toBe(true);
      expect((error as Error).message).toMatch(/servers\["fs"\]\.allow must be an array/);
    }
  });
});
