import { describe, expect, it } from 'vitest';
import { startProviderStub } from './agent/provider-stub.js';
import { runExample } from './run-example.js';

describe('demo (guided tour)', () => {
  it('runs every example in sequence with headers and exits 0', async () => {
    const { stdout, stderr, exitCode } = await runExample('demo', { timeoutMs: 300_000 });
    expect(exitCode, stderr).toBe(0);
    const headers = [...stdout.matchAll(/── (\d+)\/(\d+) (.+) ──/g)];
    const examples = [...stdout.matchAll(/ {2}✔ (\S+) \(/g)].map((match) => match[1]);
    expect(headers.length).toBeGreaterThanOrEqual(4);
    expect(examples).toEqual(
      expect.arrayContaining(['single-server', 'many-servers', 'tool-selection', 'agent-loop']),
    );
    expect(examples).toHaveLength(headers.length);
    // Each example's own output is shown, indented under its header.
    expect(stdout).toContain('  │ filesystem offers 14 tools:');
    expect(stdout).toContain('  │   answer: The sum of 17 and 25 is 42. (computed by the get-sum tool)');
    expect(stdout).toMatch(new RegExp(`Tour complete: ${headers.length} examples in [\\d.]+ s\\.`));
  }, 320_000);

  it('exits non-zero and names the step when an example fails', async () => {
    // An OpenAI-compatible endpoint that answers 500 makes agent-loop fail for real.
    const provider = await startProviderStub([]);
    const { stdout, stderr, exitCode } = await runExample('demo', {
      args: ['agent-loop'],
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: provider.baseUrl },
    }).finally(() => provider.close());
    expect(exitCode).toBe(1);
    expect(stderr).toContain(`agent-loop failed: ${provider.baseUrl}/v1/chat/completions answered 500`);
    expect(stderr).not.toContain('sk-test');
    expect(stdout).toContain('── 1/1 A custom agent loop ──');
    expect(stdout).toContain('✖ agent-loop failed with exit code 1');
    expect(stdout).toContain('Tour failed: agent-loop');
  });

  it('rejects an unknown example name with exit code 2 and the known names', async () => {
    const { stderr, exitCode } = await runExample('demo', { args: ['no-such-example'] });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('Unknown example: no-such-example. Known: single-server, many-servers');
  });
});
