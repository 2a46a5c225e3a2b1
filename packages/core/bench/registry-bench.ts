/**
 * Registry at scale: register and look up 10,000 tools, against a naive baseline that keeps tools
 * in an array (duplicate check and lookup by scanning), which is what the registry's maps replace.
 */
import type { RegisteredTool, ToolRegistry } from '../src/index.js';
import { createToolName, createToolRegistry } from '../src/index.js';
import type { BenchCase, BenchOptions, BenchReport } from './bench-report.js';
import { compare, measure } from './bench-report.js';

const toolCount = 10_000;
const serverCount = 100;

interface Fixture {
  server: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

function makeTools(): Fixture[] {
  return Array.from({ length: toolCount }, (_, index) => ({
    server: `server_${index % serverCount}`,
    name: `tool_${index}_${['search', 'create', 'list', 'delete'][index % 4]}`,
    description: `Tool number ${index}, doing something useful with its inputs.`,
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'number' } },
      required: ['query'],
    },
  }));
}

/** A fixed pseudo-random order, so lookups do not walk memory in insertion order. */
function shuffledIndices(count: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  let seed = 42;
  for (let index = count - 1; index > 0; index--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const other = seed % (index + 1);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
}

export async function run(options: BenchOptions = {}): Promise<BenchReport> {
  const rounds = options.quick ? 2 : 7;
  const tools = makeTools();
  const order = shuffledIndices(toolCount);

  let registry: ToolRegistry = createToolRegistry();
  const register = measure('registry.register', {
    count: toolCount,
    rounds,
    setup: () => {
      registry = createToolRegistry();
    },
    operation: (index) => registry.register(tools[index] as Fixture),
  });

  // Naive baseline: an array; registering scans for a duplicate, lookups scan for the name.
  let naive: RegisteredTool[] = [];
  const naiveRegister = measure('array: register with duplicate scan', {
    count: toolCount,
    rounds: Math.min(rounds, 3),
    setup: () => {
      naive = [];
    },
    operation: (index) => {
      const tool = tools[index] as Fixture;
      const name = createToolName({ server: tool.server, tool: tool.name });
      if (naive.some((existing) => existing.name === name)) throw new Error(`duplicate ${name}`);
      const registered: RegisteredTool = {
        name,
        server: tool.server,
        originalName: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      };
      naive.push(registered);
      return registered;
    },
  });

  const names = order.map((index) => {
    const tool = tools[index] as Fixture;
    return registry.getByOriginal(tool.server, tool.name)?.name as string;
  });
  const get = measure('registry.get (public name)', {
    count: toolCount,
    rounds,
    operation: (index) => registry.get(names[index] as string),
  });
  const getByOriginal = measure('registry.getByOriginal (server, tool)', {
    count: toolCount,
    rounds,
    operation: (index) => {
      const tool = tools[order[index] as number] as Fixture;
      return registry.getByOriginal(tool.server, tool.name);
    },
  });
  const resolve = measure('registry.resolve (public name → server, tool)', {
    count: toolCount,
    rounds,
    operation: (index) => registry.resolve(names[index] as string),
  });
  const naiveGet = measure('array: find by public name', {
    count: toolCount,
    rounds: Math.min(rounds, 3),
    operation: (index) => naive.find((tool) => tool.name === names[index]),
  });
  const naiveGetByOriginal = measure('array: find by (server, tool)', {
    count: toolCount,
    rounds: Math.min(rounds, 3),
    operation: (index) => {
      const wanted = tools[order[index] as number] as Fixture;
      return naive.find((tool) => tool.server === wanted.server && tool.originalName === wanted.name);
    },
  });

  if (registry.size !== toolCount || naive.length !== toolCount) {
    throw new Error(`bench setup is wrong: ${registry.size} registered, ${naive.length} in the array`);
  }
  const cases: BenchCase[] = [
    register,
    naiveRegister,
    get,
    getByOriginal,
    resolve,
    naiveGet,
    naiveGetByOriginal,
  ];
  return {
    name: `registry (${toolCount} tools, ${serverCount} servers)`,
    cases,
    comparisons: [
      compare('register', register, naiveRegister),
      compare('lookup by public name', get, naiveGet),
      compare('lookup by (server, tool)', getByOriginal, naiveGetByOriginal),
    ],
  };
}
