import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

/** The printed selection of each query: query text → tool names in rank order. */
function selections(stdout: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const block of stdout.split('\n“').slice(1)) {
    const [query = '', ...lines] = block.split('\n');
    const names = lines.map((line) => /^\s+\d\.\d{3}\s+(\S+)/.exec(line)?.[1]).filter(Boolean) as string[];
    result.set(query.replace(/”$/, ''), names);
  }
  return result;
}

describe('tool-selection example', () => {
  it('selects the fitting tool out of 500+ for each query and reports the tokens saved', async () => {
    const { stdout, stderr, exitCode } = await runExample('tool-selection');
    expect(exitCode, stderr).toBe(0);
    const indexed = Number(/^(\d+) tools indexed/m.exec(stdout)?.[1]);
    expect(indexed).toBeGreaterThanOrEqual(500);
    expect(stdout).toMatch(/catalogue 500/);
    expect(stdout).toMatch(/^ranking: (hybrid|BM25 only)/m);

    const picked = selections(stdout);
    const expected: Record<string, string> = {
      'add two numbers together': 'mcp__everything__get-sum',
      'book a flight from Oslo to Paris next Friday': 'mcp__catalogue__travel_create_flight_booking',
      'list the files in my directory': 'mcp__filesystem__list_directory',
      'store Alice as a new entity in the knowledge graph': 'mcp__memory__create_entities',
      'scale the web deployment to five replicas': 'mcp__catalogue__kubernetes_update_deployment',
      'send an invoice of 300 euros to customer 42': 'mcp__catalogue__billing_create_invoice',
    };
    expect([...picked.keys()]).toEqual(Object.keys(expected));
    for (const [query, tool] of Object.entries(expected)) {
      const names = picked.get(query) ?? [];
      expect(names, query).toContain(tool);
      expect(names, query).toContain('discover_tools');
      expect(names.length, query).toBe(6);
    }

    const usage = [
      ...stdout.matchAll(/tokens: (\d+) for 6 tools instead of (\d+) for (\d+) \(saves ([\d.]+)%\)/g),
    ];
    expect(usage).toHaveLength(6);
    for (const [, selected, total, tools] of usage) {
      expect(Number(tools)).toBe(indexed);
      expect(Number(selected)).toBeLessThan(Number(total) / 20);
    }
  });
});
