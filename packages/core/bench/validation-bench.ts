/**
 * Argument validation: 100,000 argument objects for the real tools of the official servers,
 * validated with the cached validators of `createArgumentValidator`, against the baseline of
 * compiling the schema with ajv on every call (what a validator without a cache does).
 */
import { Ajv, type Options as AjvOptions } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { McpToolDefinition } from '../src/index.js';
import { createArgumentValidator, normalizeSchema, schemaDialect } from '../src/index.js';
import { loadFixtureTools } from '../test/fixtures/load-fixtures.js';
import { createRandom, generateValue } from '../test/schema-value-generator.js';
import type { BenchOptions, BenchReport } from './bench-report.js';
import { compare, measure } from './bench-report.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Call {
  tool: McpToolDefinition;
  args: Record<string, unknown>;
}

function makeCalls(count: number, invalidEvery: number): Call[] {
  const tools = loadFixtureTools().map((entry) => entry.tool);
  const schemas = tools.map((tool) => normalizeSchema(tool.inputSchema).result);
  const random = createRandom(7);
  return Array.from({ length: count }, (_, index) => {
    const toolIndex = index % tools.length;
    const args = generateValue(schemas[toolIndex] ?? {}, random) as Record<string, unknown>;
    // Every n-th call carries an argument no tool accepts, so the error path is measured too.
    if (invalidEvery > 0 && index % invalidEvery === 0) args.unexpected_argument = 1;
    return { tool: tools[toolIndex] as McpToolDefinition, args };
  });
}

/** Runs the validation bench; `quick` validates 10,000 objects instead of 100,000. */
export async function run(options: BenchOptions = {}): Promise<BenchReport> {
  const count = options.quick ? 10_000 : 100_000;
  const rounds = options.quick ? 1 : 3;
  const baselineCount = options.quick ? 200 : 2_000;
  const calls = makeCalls(count, 0);
  const mixedCalls = makeCalls(count, 10);

  const validator = createArgumentValidator();
  const cached = measure(`cached validators (${count.toLocaleString('en')} valid argument objects)`, {
    count,
    rounds,
    operation: (index) => {
      const call = calls[index] as Call;
      return validator.validate(call.tool, call.args);
    },
  });
  const mixed = measure('cached validators, 10% invalid (error message built)', {
    count,
    rounds,
    operation: (index) => {
      const call = mixedCalls[index] as Call;
      return validator.validate(call.tool, call.args);
    },
  });
  // The cache must have compiled each distinct schema once: tools with identical schemas share one.
  const { compilations } = validator.stats();
  const distinctSchemas = new Set(calls.map((call) => JSON.stringify(call.tool.inputSchema))).size;
  if (compilations !== distinctSchemas) {
    throw new Error(`Expected ${distinctSchemas} compilations, got ${compilations}`);
  }
  cached.name += `, ${compilations} compilations for ${distinctSchemas} distinct schemas`;

  const ajvOptions: AjvOptions = { allErrors: true, strict: false, logger: false };
  const draft07 = new Ajv(ajvOptions);
  const draft2020 = new Ajv2020(ajvOptions);
  addFormats(draft07);
  addFormats(draft2020);
  const perCall = measure(`ajv.compile on every call (${baselineCount.toLocaleString('en')} calls)`, {
    count: baselineCount,
    rounds,
    batch: 10,
    operation: (index) => {
      const call = calls[index] as Call;
      const ajv = schemaDialect(call.tool.inputSchema) === 'draft-07' ? draft07 : draft2020;
      // A fresh copy each time: ajv caches compiled schemas by object, which would hide the cost.
      const schema = structuredClone(call.tool.inputSchema);
      const valid = ajv.compile(schema)(call.args);
      ajv.removeSchema(schema);
      return valid;
    },
  });

  return {
    name: 'validation',
    cases: [cached, mixed, perCall],
    comparisons: [compare('validation, cached vs compile per call', cached, perCall)],
  };
}
