/**
 * `validatedArguments` copies the arguments of a plain zod object schema instead of parsing them:
 * its answer must be zod's own, value for value and key for key (order included), and it must
 * throw where zod throws. Other schemas go through zod unchanged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createMcpServer, defineTool, serve } from '../src/index.js';
import { validatedArguments } from '../src/tools/validated-arguments.js';

/** zod's answer, or the class of what it threw. */
function zodAnswer(schema: z.ZodType, args: Record<string, unknown>): unknown {
  try {
    return { ok: JSON.stringify(schema.parse(args)) };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

function ourAnswer(schema: z.ZodType, args: Record<string, unknown>): unknown {
  const tool = defineTool({ name: 't', description: 't', input: schema as z.ZodObject, execute: () => '' });
  try {
    const result = validatedArguments(tool, args);
    expect(result).not.toBe(args);
    return { ok: JSON.stringify(result) };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

const plainSchemas = {
  one: z.object({ message: z.string().describe('what to echo') }),
  mixed: z.object({ a: z.string(), b: z.number().optional(), c: z.boolean().nullable() }),
  allOptional: z.object({ x: z.number().optional(), y: z.string().nullable().optional() }),
  empty: z.object({}),
};

/** Inputs a client may send: right, reordered, missing, extra, wrong types, non-finite numbers. */
const inputs: Array<Record<string, unknown>> = [
  {},
  { message: 'hi' },
  { message: 'hi', extra: 1 },
  { message: 5 },
  { message: null },
  { message: undefined },
  { a: 'x', b: 1, c: true },
  { c: false, b: 2, a: 'y' },
  { c: null, a: 'z' },
  { a: 'x', c: true, b: Number.NaN },
  { a: 'x', c: true, b: Number.POSITIVE_INFINITY },
  { a: 'x', b: '1', c: true },
  { a: 'x', b: null, c: true },
  { a: 'x' },
  { a: 'x', c: 'true' },
  { a: 'x', c: true, b: undefined },
  { y: null },
  { y: 'text', x: 3 },
  { x: 3, y: 'text' },
  { x: -0 },
  { x: 1, z: 2 },
  JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>,
];

describe('validatedArguments', () => {
  for (const [name, schema] of Object.entries(plainSchemas)) {
    test(`a plain schema (${name}): the same answer as zod's parse for every input`, () => {
      for (const args of inputs)
        expect(ourAnswer(schema, args), JSON.stringify(args)).toEqual(zodAnswer(schema, args));
    });
  }

  const otherSchemas = {
    coerce: [z.object({ n: z.coerce.number() }), { n: '5' }, '{"n":5}'],
    default: [z.object({ s: z.string().default('d') }), {}, '{"s":"d"}'],
    transform: [
      z.object({ s: z.string().transform((value) => value.toUpperCase()) }),
      { s: 'a' },
      '{"s":"A"}',
    ],
    trim: [z.object({ s: z.string().trim() }), { s: ' a ' }, '{"s":"a"}'],
    int: [z.object({ n: z.int() }), { n: 1.5 }, undefined],
    email: [z.object({ e: z.email() }), { e: 'not an address' }, undefined],
    refine: [z.object({ s: z.string().refine((value) => value.length > 3) }), { s: 'ab' }, undefined],
    strict: [z.strictObject({ s: z.string() }), { s: 'a', t: 1 }, undefined],
    loose: [z.looseObject({ s: z.string() }), { s: 'a', t: 1 }, '{"s":"a","t":1}'],
    nested: [z.object({ o: z.object({ s: z.string() }) }), { o: { s: 'a', drop: 1 } }, '{"o":{"s":"a"}}'],
    array: [z.object({ l: z.array(z.string()) }), { l: ['a'] }, '{"l":["a"]}'],
  } as const;
  for (const [name, [schema, args, expected]] of Object.entries(otherSchemas)) {
    test(`another schema (${name}) goes through zod`, () => {
      const answer = ourAnswer(schema as z.ZodType, args as Record<string, unknown>);
      expect(answer).toEqual(zodAnswer(schema as z.ZodType, args as Record<string, unknown>));
      expect(answer).toEqual(expected === undefined ? { threw: 'ZodError' } : { ok: expected });
    });
  }

  test('zod is left out for arguments of a plain schema, and asked for anything else', () => {
    const tool = defineTool({
      name: 'spy',
      description: 'spy',
      input: plainSchemas.mixed,
      execute: () => '',
    });
    const parse = tool.parse as (args: unknown) => unknown;
    let parsed = 0;
    tool.parse = (args) => {
      parsed++;
      return parse(args);
    };
    validatedArguments(tool, { c: true, a: 'x' });
    validatedArguments(tool, { a: 'x', b: 1, c: null });
    expect(parsed).toBe(0);
    validatedArguments(tool, { a: 'x', c: true, more: 1 });
    expect(() => validatedArguments(tool, { a: 'x' })).toThrow();
    expect(parsed).toBe(2);
  });

  test('a tool without a zod input gets its arguments as they are', () => {
    const tool = defineTool({
      name: 'json',
      description: 'json',
      input: { type: 'object', properties: { a: { type: 'string' } } },
      execute: () => '',
    });
    const args = { a: 'x', extra: 1 };
    expect(validatedArguments(tool, args)).toBe(args);
  });
});

test('over HTTP, a plain-schema tool gets its arguments in the schema order, without unknown keys', async () => {
  const server = createMcpServer({
    name: 'arguments',
    version: '1.0.0',
    tools: [
      defineTool({
        name: 'show',
        description: 'show',
        input: z.object({ a: z.string(), b: z.number().optional() }),
        execute: (args) => JSON.stringify(args),
      }),
    ],
  });
  const handle = await serve(server, { transport: { type: 'http', port: 0, json: true } });
  const client = new Client({ name: 'arguments-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
    const shown = async (args: Record<string, unknown>) =>
      ((await client.callTool({ name: 'show', arguments: args })).content as Array<{ text: string }>)[0]
        ?.text;
    expect(await shown({ b: 2, a: 'x' })).toBe('{"a":"x","b":2}');
    expect(await shown({ a: 'y', unknown: true })).toBe('{"a":"y"}');
    const refused = await client.callTool({ name: 'show', arguments: { a: 1 } });
    expect(refused.isError).toBe(true);
  } finally {
    await client.close();
    await handle.close();
  }
});
