import { describe, expect, it } from 'vitest';
import type { McpToolDefinition } from '../../src/index.js';
import { createArgumentValidator } from '../../src/index.js';
import { withoutDefaultedRequired } from '../../src/validation/defaulted-required.js';

// The shape zod-to-json-schema gives Playwright MCP's `browser_take_screenshot`: `scale` is
// required and has a default, and the server answers `{}` with an image.
const screenshot: McpToolDefinition = {
  name: 'browser_take_screenshot',
  inputSchema: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['png', 'jpeg'], default: 'png' },
      scale: { type: 'string', enum: ['css', 'device'], default: 'css' },
      filename: { type: 'string' },
      clip: {
        type: 'object',
        properties: { x: { type: 'number', default: 0 }, y: { type: 'number' } },
        required: ['x', 'y'],
      },
    },
    required: ['type', 'scale', 'filename'],
    additionalProperties: false,
  },
};

describe('a required property with a default is satisfied by its default', () => {
  it('accepts the call without the defaulted properties, as the server would', () => {
    const validator = createArgumentValidator();
    expect(validator.validate(screenshot, { filename: 'a.png' }).valid).toBe(true);
    expect(validator.validate(screenshot, { filename: 'a.png', clip: { y: 2 } }).valid).toBe(true);
  });

  it('still refuses a missing required property without a default, and a wrong defaulted value', () => {
    const validator = createArgumentValidator();
    const missing = validator.validate(screenshot, {});
    expect(missing.valid).toBe(false);
    expect(missing.problems.map((problem) => problem.message)).toEqual(['`filename` is required']);
    const nested = validator.validate(screenshot, { filename: 'a', clip: {} });
    expect(nested.problems.map((problem) => problem.message)).toEqual(['`clip.y` is required']);
    const wrong = validator.validate(screenshot, { filename: 'a', scale: 'huge' });
    expect(wrong.problems.map((problem) => problem.keyword)).toEqual(['enum']);
  });

  it('reaches defaults inside combinators, arrays and $defs, and copies nothing when nothing changes', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', items: { $ref: '#/$defs/item' } },
        either: { anyOf: [{ type: 'object', properties: { n: { default: 1 } }, required: ['n'] }] },
      },
      $defs: { item: { type: 'object', properties: { k: { default: 'x' } }, required: ['k'] } },
    };
    const relaxed = withoutDefaultedRequired(schema) as typeof schema;
    expect(relaxed.$defs.item.required).toEqual([]);
    expect((relaxed.properties.either.anyOf[0] as { required: string[] }).required).toEqual([]);
    expect(schema.$defs.item.required).toEqual(['k']);
    const plain = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(withoutDefaultedRequired(plain)).toBe(plain);
  });
});
