import { describe, expect, it } from 'vitest';
import { SwitchboardError } from '../src/index.js';

describe('SwitchboardError', () => {
  it('carries code, context and cause', () => {
    const cause = new Error('boom');
    const error = new SwitchboardError({
      code: 'TOOL_NOT_FOUND',
      message: 'no tool',
      context: { tool: 'x' },
      cause,
    });
    expect(error.code).toBe('TOOL_NOT_FOUND');
    expect(error.context).toEqual({ tool: 'x' });
    expect(error.cause).toBe(cause);
    expect(error).toBeInstanceOf(Error);
    expect(SwitchboardError.hasCode(error, 'TOOL_NOT_FOUND')).toBe(true);
    expect(SwitchboardError.hasCode(error, 'TIMEOUT')).toBe(false);
  });

  it('recognises an error made by another copy of the class', () => {
    // Simulate a second copy of the package: a different class carrying the same global marker.
    const otherMarker: unique symbol = Symbol.for('switchboard.error');
    class OtherCopy extends Error {
      readonly code = 'TIMEOUT';
      readonly [otherMarker] = true;
    }
    expect(SwitchboardError.isInstance(new OtherCopy('x'))).toBe(true);
    expect(SwitchboardError.isInstance(new Error('plain'))).toBe(false);
    expect(SwitchboardError.isInstance(null)).toBe(false);
  });

  it('serialises without the cause', () => {
    const error = new SwitchboardError({ code: 'TIMEOUT', message: 'slow', context: { ms: 5 } });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'SwitchboardError',
      code: 'TIMEOUT',
      message: 'slow',
      context: { ms: 5 },
    });
  });
});
