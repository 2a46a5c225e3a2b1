import { beforeAll, describe, expect, it } from 'vitest';
import { type ExampleRun, runExample } from './run-example.js';

describe('gateway example', () => {
  let run: ExampleRun;
  beforeAll(async () => {
    run = await runExample('gateway');
  }, 240_000);

  it('serves four servers as one over HTTP to a raw SDK client, listing tools that need approval too', async () => {
    const { stdout, stderr, exitCode } = run;
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(
      /gateway over everything, filesystem, memory, catalogue on http:\/\/127\.0\.0\.1:\d+\/mcp/,
    );
    const [, listed, upstream] = /tools\/list: (\d+) of (\d+) upstream tools/.exec(stdout) ?? [];
    // 536, plus the 3 tools server-everything offers to a client that can answer elicitation,
    // sampling and roots (the gateway declares them to bridge those requests to its clients).
    expect(Number(upstream)).toBe(539);
    // Tools that need approval are listed (asked about where the person is), not hidden.
    expect(Number(listed)).toBe(539);
    const [, asking] = /(\d+) of them need approval, e\.g\.: mcp__\w+/.exec(stdout) ?? [];
    expect(Number(asking)).toBeGreaterThan(0);
    expect(stdout).toContain('mcp__everything__echo → Echo: through the gateway');
    expect(stdout).toContain('mcp__everything__get-sum → The sum of 2 and 40 is 42.');
    expect(stdout).toContain('mcp__filesystem__list_allowed_directories → Allowed directories: <tmp>');
    expect(stdout).toMatch(/mcp__catalogue__weather_count_weather_alert → weather_count_weather_alert done/);
    // The raw SDK client answers no elicitation: the call runs, its host's confirmation being the ask.
    expect(stdout).toContain('mcp__filesystem__write_file → Successfully wrote to <tmp>/x.txt');
    expect(stdout).toContain(
      'mcp__everything__get-sum → isError: Invalid arguments for tool `mcp__everything__get-sum`',
    );
    // The same endpoint serves the 2026-07-28 era to the SDK v2 client, the same tools.
    expect(stdout).toContain(
      `SDK v2 client pinned to 2026-07-28 (modern era): ${listed} tools, echo → Echo: in 2026-07-28`,
    );
    expect(stdout).toContain(
      'GET /health → upstreams: everything connected, filesystem connected, memory connected, catalogue connected',
    );
  });

  it('serves only discover_tools from the selective gateway until a tool is discovered', async () => {
    const { stdout, stderr, exitCode } = run;
    expect(exitCode, stderr).toBe(0);
    const selective = stdout.slice(stdout.indexOf('selective gateway on'));
    const lists = [...selective.matchAll(/^tools\/list: (.*)$/gm)].map((match) => match[1]?.split(', '));
    expect(lists[0]).toEqual(['discover_tools']);
    expect(lists[1]).toContain('discover_tools');
    expect(lists[1]).toContain('mcp__catalogue__travel_create_flight_booking');
    expect(lists[1]).toHaveLength(3);
    expect(selective).toContain('discover_tools → Found 2 tool(s)');
    expect(selective).toMatch(
      /mcp__catalogue__travel_create_flight_booking → travel_create_flight_booking done/,
    );
  });
});
