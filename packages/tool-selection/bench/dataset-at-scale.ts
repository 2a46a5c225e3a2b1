/**
 * What the benches do with a dataset at a scale: its tools padded with synthetic ones (or cut) to
 * that many, registered in a core registry, and an even sample of its queries. Shared by `bench`,
 * `bench:defaults` and `bench:index`.
 */
import type { ToolRegistry } from '@switchboard/core';
import { createToolRegistry } from '@switchboard/core';
import type { DatasetTool } from './dataset.js';
import { syntheticTools } from './synthetic-tools.js';

/** The first `scale` tools, padded with deterministic synthetic tools past the dataset's own. */
export function toolsAtScale(tools: readonly DatasetTool[], scale: number): DatasetTool[] {
  if (scale <= tools.length) return tools.slice(0, scale);
  return [...tools, ...syntheticTools(scale - tools.length)];
}

/** A registry holding `tools` (each under its server, `dataset` when it names none). */
export function registryOf(tools: readonly DatasetTool[]): ToolRegistry {
  const registry = createToolRegistry();
  for (const tool of tools) {
    registry.register({
      server: tool.server ?? 'dataset',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema ?? { type: 'object' },
      ...(tool.server_description ? { meta: { serverDescription: tool.server_description } } : {}),
    });
  }
  return registry;
}

/** `count` items spread evenly over `items` (all of them when there are fewer). */
export function everyNth<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, index) => items[Math.floor(index * step)] as T);
}
