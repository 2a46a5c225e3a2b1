/**
 * Every real tool of the official MCP servers, and every hard schema, through every converter:
 * the provider checkers must accept the result (or the lossy list must say why not), and values
 * generated from the converted schema must validate against the original (or the lossy list must
 * explain the difference).
 */
import { describe, expect, it } from 'vitest';
import type { JsonSchema, LossyChange, McpToolDefinition } from '../../src/index.js';
import {
  checkToolSchema,
  normalizeSchema,
  removeStrictModeNulls,
  toAnthropicTool,
  toFlatParameters,
  toGeminiFunction,
  toOpenAITool,
  toZodSchema,
} from '../../src/index.js';
import { hardTools } from '../fixtures/hard-schemas.js';
import { loadFixtureTools } from '../fixtures/load-fixtures.js';
import { createJudge, createRandom, generateValue } from '../schema-value-generator.js';

const realTools = loadFixtureTools();
const judge = createJudge();
const samples = 25;

// Changes that can make a value valid for the converted schema but not for the original.
function explainsInvalidity(lossy: LossyChange[]): boolean {
  return lossy.some(
    (change) =>
      !['made-nullable', 'closed-object', 'made-required'].includes(change.kind) &&
      !(change.kind === 'moved-to-description' && /\/(default|examples|title)$/.test(change.path)),
  );
}

function invalidSamples(
  converted: JsonSchema,
  original: JsonSchema,
  seed: number,
  prepare: (value: unknown) => unknown = (value) => value,
): Array<{ value: unknown; errors: string[] }> {
  const random = createRandom(seed);
  const failures: Array<{ value: unknown; errors: string[] }> = [];
  for (let index = 0; index < samples; index++) {
    const value = prepare(generateValue(converted, random, { minimal: index % 5 === 0 }));
    const errors = judge(original, value);
    if (errors.length > 0) failures.push({ value, errors });
  }
  return failures;
}

function expectErrorsExplained(problems: ReturnType<typeof checkToolSchema>, lossy: LossyChange[]): void {
  for (const problem of problems.filter((entry) => entry.severity === 'error')) {
    expect(lossy).toContainEqual({
      path: problem.path,
      kind: 'target-limit-exceeded',
      message: problem.message,
    });
  }
}

describe('real tools of the official servers', () => {
  it('loads all three tool lists', () => {
    const count = (server: string) => realTools.filter((entry) => entry.server === server).length;
    expect(count('server-everything')).toBe(13);
    expect(count('server-filesystem')).toBe(14);
    expect(count('server-memory')).toBe(9);
  });

  describe.each(realTools.map(({ server, tool }) => [`${server}/${tool.name}`, tool] as const))(
    '%s',
    (_label, tool) => {
      it('converts to OpenAI strict mode that passes the strict checker', () => {
        const { result, lossy } = toOpenAITool(tool, { strict: true });
        expect(checkToolSchema(result.function.parameters, 'openai-strict')).toEqual([]);
        expect(
          lossy
            .map((change) => change.kind)
            .every((kind) => ['made-nullable', 'moved-to-description'].includes(kind)),
        ).toBe(true);
        const failures = invalidSamples(result.function.parameters, tool.inputSchema, 1, (value) =>
          removeStrictModeNulls(tool.inputSchema, value as Record<string, unknown>),
        );
        if (failures.length > 0) expect(explainsInvalidity(lossy), JSON.stringify(failures[0])).toBe(true);
      });

      it('converts to OpenAI (non-strict) and Anthropic without loss', () => {
        const openai = toOpenAITool(tool);
        expect(openai.lossy).toEqual([]);
        expect(checkToolSchema(openai.result.function.parameters, 'openai')).toEqual([]);
        const anthropic = toAnthropicTool(tool);
        expect(anthropic.lossy).toEqual([]);
        expect(anthropic.result.input_schema).toEqual(tool.inputSchema);
        expect(checkToolSchema(anthropic.result.input_schema, 'anthropic')).toEqual([]);
      });

      it('converts to a Gemini declaration that passes the Gemini checker', () => {
        const { result, lossy } = toGeminiFunction(tool);
        if (result.parameters === undefined) {
          expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual([]);
          return;
        }
        expect(
          checkToolSchema(result.parameters, 'gemini').filter((problem) => problem.severity === 'error'),
        ).toEqual([]);
        const failures = invalidSamples(result.parameters, tool.inputSchema, 2);
        if (failures.length > 0) expect(explainsInvalidity(lossy), JSON.stringify(failures[0])).toBe(true);
      });

      it('generates values from the normalised schema that the original and the zod schema accept', () => {
        const normalised = normalizeSchema(tool.inputSchema);
        expect(normalised.lossy).toEqual([]);
        expect(invalidSamples(normalised.result, tool.inputSchema, 3)).toEqual([]);
        const zod = toZodSchema(tool.inputSchema);
        expect(zod.lossy).toEqual([]);
        const random = createRandom(4);
        for (let index = 0; index < samples; index++) {
          const value = generateValue(normalised.result, random);
          expect(zod.result.safeParse(value).success).toBe(true);
        }
      });

      it('flattens to one parameter per property', () => {
        const { result } = toFlatParameters(tool.inputSchema);
        const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
        const required = (tool.inputSchema.required ?? []) as string[];
        expect(Object.keys(result)).toEqual(Object.keys(properties));
        for (const [name, parameter] of Object.entries(result)) {
          expect(parameter.required).toBe(required.includes(name));
          expect(parameter.description).toBe(properties[name]?.description ?? '');
        }
      });
    },
  );
});

describe('hard schemas', () => {
  const tools: McpToolDefinition[] = hardTools();
  describe.each(tools.map((tool) => [tool.name, tool] as const))('%s', (_label, tool) => {
    it('converts to OpenAI strict mode: the checker passes or the lossy list explains each problem', () => {
      const { result, lossy } = toOpenAITool(tool, { strict: true });
      expectErrorsExplained(checkToolSchema(result.function.parameters, 'openai-strict'), lossy);
      const failures = invalidSamples(result.function.parameters, tool.inputSchema, 5, (value) =>
        removeStrictModeNulls(tool.inputSchema, value as Record<string, unknown>),
      );
      if (failures.length > 0) expect(explainsInvalidity(lossy), JSON.stringify(failures[0])).toBe(true);
    });

    it('converts to Gemini: the checker passes or the lossy list explains each problem', () => {
      const { result, lossy } = toGeminiFunction(tool);
      expect(result.parameters).toBeDefined();
      const parameters = result.parameters as JsonSchema;
      expectErrorsExplained(checkToolSchema(parameters, 'gemini'), lossy);
      const failures = invalidSamples(parameters, tool.inputSchema, 6);
      if (failures.length > 0) expect(explainsInvalidity(lossy), JSON.stringify(failures[0])).toBe(true);
    });

    it('normalises into a schema whose values the original and zod accept, or says why not', () => {
      const normalised = normalizeSchema(tool.inputSchema);
      const failures = invalidSamples(normalised.result, tool.inputSchema, 7);
      if (failures.length > 0)
        expect(explainsInvalidity(normalised.lossy), JSON.stringify(failures[0])).toBe(true);
      const zod = toZodSchema(tool.inputSchema);
      const random = createRandom(8);
      for (let index = 0; index < samples; index++) {
        const value = generateValue(normalised.result, random, { minimal: true });
        if (judge(tool.inputSchema, value).length > 0) continue;
        const parsed = zod.result.safeParse(value);
        expect(parsed.success, `${JSON.stringify(value)} ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    });

    it('converts to Anthropic with a root object', () => {
      const { result } = toAnthropicTool(tool);
      expect(checkToolSchema(result.input_schema, 'anthropic')).toEqual([]);
    });
  });
});
