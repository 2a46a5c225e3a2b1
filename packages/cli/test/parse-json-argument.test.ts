import { describe, expect, it } from 'vitest';
import { findJsonErrorOffset, parseJsonArgument } from '../src/parse-json-argument.js';

describe('parseJsonArgument', () => {
  it('parses an object', () => {
    expect(parseJsonArgument('{"a": [1, 2.5e3, true, null, "x\\"y"]}', '--args')).toEqual({
      a: [1, 2500, true, null, 'x"y'],
    });
  });

  it.each([
    ['{"message": hi}', 12],
    ["{'a': 1}", 1],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['[1 2]', 3],
  ])('finds where %s breaks', (text, offset) => {
    expect(findJsonErrorOffset(text)).toBe(offset);
  });

  it('reports line and column and the text around the break', () => {
    expect(() => parseJsonArgument('{\n  "a": 1,\n  b: 2\n}', '--args')).toThrow(
      /line 3, column 3.*unexpected 'b'/,
    );
  });

  it('reports an unfinished value', () => {
    expect(() => parseJsonArgument('{"a": "x', '--args')).toThrow(/at the end/);
  });

  it('wants an object, not another JSON value', () => {
    expect(() => parseJsonArgument('[1]', '--args')).toThrow(/JSON object/);
  });
});
