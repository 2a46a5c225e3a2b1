import { describe, expect, it } from 'vitest';
import { readmeSnippet, runSnippet } from '../src/index.js';

const readme = new URL('./fixtures/README.md', import.meta.url);

describe('README snippets', () => {
  it('takes the first ts block, or the first after a heading', () => {
    expect(readmeSnippet(readme)).toBe("console.log('first');\n");
    expect(readmeSnippet(readme, '## Usage')).toBe("console.log('usage', 1 + 1);\n");
    expect(readmeSnippet(readme, '## Missing')).toBeUndefined();
  });

  it('runs a snippet and returns what it printed, twice', async () => {
    const snippet = readmeSnippet(readme, '## Usage') as string;
    expect(await runSnippet(snippet, { nextTo: import.meta.url })).toEqual(['usage 2']);
    expect(await runSnippet(snippet, { nextTo: import.meta.url })).toEqual(['usage 2']);
  });
});
