import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

/** The lines the example printed for one user request. */
function turnOf(stdout: string, request: string): string {
  const start = stdout.indexOf(`user: ${request}`);
  const end = stdout.indexOf('\nuser: ', start + 1);
  return stdout.slice(start, end === -1 ? undefined : end);
}

describe('agent-loop example', () => {
  it('runs the scripted model offline: direct calls, discover_tools, approvals', async () => {
    const { stdout, stderr, exitCode } = await runExample('agent-loop');
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toMatch(/^model: scripted \(offline, deterministic\); 537 tools available/m);

    const sum = turnOf(stdout, 'Add the numbers 17 and 25.');
    expect(sum).toMatch(/selected: .*mcp__everything__get-sum/);
    expect(sum).toContain('→ mcp__everything__get-sum {"a":17,"b":25}');
    expect(sum).toContain('answer: The sum of 17 and 25 is 42.');

    const booking = turnOf(stdout, 'Book a flight');
    expect(booking).not.toMatch(/selected: .*slack_create_channel_message/);
    const discover = booking.indexOf('→ discover_tools {"query":"post a message to a chat channel"}');
    const slack = booking.indexOf('→ mcp__catalogue__slack_create_channel_message');
    expect(discover).toBeGreaterThan(booking.indexOf('→ mcp__catalogue__travel_create_flight_booking'));
    expect(slack).toBeGreaterThan(discover);
    expect(booking).toMatch(/discovered: mcp__catalogue__slack_create_channel_message/);
    expect(booking).toMatch(/answer: Booked flight travel-\d+ and told #travel \(message slack-\d+\)\./);

    const itinerary = turnOf(stdout, 'Save my itinerary');
    expect(itinerary).toContain('approval: APPROVED mcp__filesystem__write_file');
    expect(itinerary).toContain('success: Successfully wrote to <tmp>/trip.md');
    expect(itinerary).toContain('approval: DENIED mcp__catalogue__travel_delete_flight_booking');
    expect(itinerary).toMatch(
      /error: Tool "mcp__catalogue__travel_delete_flight_booking" .*was not approved/,
    );
    expect(stdout).toContain('trip.md on disk: "# Trip\\nOSL → CDG, 2026-12-04\\n"');
  });
});
