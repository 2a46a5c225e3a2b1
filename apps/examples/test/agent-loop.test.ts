import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

/** The lines the example printed for one user request. */
function turnOf(stdout: string, request: string): string {
  const start = stdout.indexOf(`user: ${request}`);
  const end = stdout.indexOf('\nuser: ', start + 1);
  return stdout.slice(start, end === -1 ? undefined : end);
}

/**
 * Checks the rule the loop enforces whatever the ranking: every tool the model calls was either
 * selected for the request or returned by a discover_tools call made before it. Returns how many
 * calls needed discovery.
 */
function checkOffered(turn: string): number {
  const offered = new Set((/selected: (.*)/.exec(turn)?.[1] ?? '').split(', '));
  let discoveredCalls = 0;
  for (const line of turn.split('\n')) {
    const discovered = /^\s+discovered: (.*)$/.exec(line);
    if (discovered) {
      for (const name of discovered[1]?.split(', ') ?? []) offered.add(`found:${name}`);
      continue;
    }
    const call = /^\s+→ (\S+) /.exec(line)?.[1];
    if (!call || call === 'discover_tools') continue;
    if (offered.has(call)) continue;
    expect(offered.has(`found:${call}`), `${call} was neither selected nor discovered`).toBe(true);
    discoveredCalls++;
  }
  return discoveredCalls;
}

describe('agent-loop example', () => {
  it('runs the scripted model offline: tool calls, discover_tools, approvals', async () => {
    const { stdout, stderr, exitCode } = await runExample('agent-loop');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/^model: scripted \(offline, deterministic\); 537 tools available/m);

    const sum = turnOf(stdout, 'Add the numbers 17 and 25.');
    expect(sum).toContain('→ mcp__everything__get-sum {"a":17,"b":25}');
    expect(sum).toContain('answer: The sum of 17 and 25 is 42.');

    // The request does not say how to tell the team: the chat tool comes from discover_tools.
    const booking = turnOf(stdout, 'Book a flight');
    expect(booking).not.toMatch(/selected: .*slack_create_channel_message/);
    const discover = booking.indexOf('→ discover_tools {"query":"post a message to a chat channel"}');
    expect(discover).toBeGreaterThan(booking.indexOf('→ mcp__catalogue__travel_create_flight_booking'));
    expect(booking.indexOf('→ mcp__catalogue__slack_create_channel_message')).toBeGreaterThan(discover);
    expect(booking).toMatch(/answer: Booked flight travel-\d+ and told #travel \(message slack-\d+\)\./);

    const itinerary = turnOf(stdout, 'Save my itinerary');
    expect(itinerary).toContain('approval: APPROVED mcp__filesystem__write_file');
    expect(itinerary).toContain('success: Successfully wrote to <tmp>/trip.md');
    expect(itinerary).toContain('approval: DENIED mcp__catalogue__travel_delete_flight_booking');
    expect(itinerary).toMatch(
      /error: Tool "mcp__catalogue__travel_delete_flight_booking" .*was not approved/,
    );
    expect(stdout).toContain('trip.md on disk: "# Trip\\nOSL → CDG, 2026-12-04\\n"');

    const discovered = [sum, booking, itinerary].map(checkOffered);
    expect(discovered[1]).toBeGreaterThanOrEqual(1);
  });
});
