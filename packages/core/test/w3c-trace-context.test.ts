/** The `traceparent` codec against the W3C Trace Context rules and examples. */
import { describe, expect, test } from 'vitest';
import { formatTraceparent, parseTraceparent } from '../src/index.js';

const example = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('traceparent', () => {
  test('reads the W3C example and writes it back unchanged', () => {
    const parsed = parseTraceparent(example);
    expect(parsed).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
    });
    expect(formatTraceparent(parsed as NonNullable<typeof parsed>)).toBe(example);
  });

  test('writes unsampled flags as 00', () => {
    expect(
      formatTraceparent({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: 0,
      }),
    ).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00');
  });

  test.each([
    ['not a string', 42],
    ['too short', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01'],
    ['version ff', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
    ['version 00 with a tail', `${example}-what`],
    ['upper-case hex', '00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01'],
    ['all-zero trace id', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`],
    ['all-zero span id', `00-0af7651916cd43dd8448eb211c80319c-${'0'.repeat(16)}-01`],
    ['bad separators', '00_0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331_01'],
    ['flags not hex', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0g'],
  ])('refuses %s (the receiver starts a new trace)', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  test('a later version is read by its version-00 prefix', () => {
    expect(parseTraceparent('01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future')).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
    });
    expect(parseTraceparent('01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01future')).toBeUndefined();
  });
});
