/**
 * The trust routes of the HTTP API over a real session, against the malicious fixture server over
 * stdio (a poisoned description and a shadowing one beside the mail tool it names): what is held
 * back, with each finding's span cut out of its field's text; an approval that serves the tool and
 * says so on the live stream; bad bodies and a decision with nothing pending refused clearly.
 */
import { maliciousStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiErrorBody, UiToolSummary, UiTrustDecision, UiTrustReview } from '../src/ui-api.js';
import { type EventReader, eventOf, startUi, type UiHarness } from './inspector-harness.js';

let ui: UiHarness;
let events: EventReader;

beforeAll(async () => {
  ui = await startUi({
    poison: maliciousStdio('poisoned-description'),
    mail: maliciousStdio('mail'),
    calc: maliciousStdio('shadowing'),
  });
  events = await ui.events();
});
afterAll(async () => {
  await ui?.close();
});

const toolNames = async (server: string) =>
  (await ui.api<UiToolSummary[]>('GET', `/api/servers/${server}/tools`)).body.map((tool) => tool.name).sort();

describe('switchboard ui: tool trust routes', () => {
  it('lists the held-back tools with their findings, each span cut out of its text', async () => {
    const { status, body } = await ui.api<UiTrustReview[]>('GET', '/api/trust');
    expect(status).toBe(200);
    expect(body.map((review) => [review.server, review.tool, review.status, review.change])).toEqual([
      ['calc', 'add', 'pending', 'finding'],
      ['poison', 'add', 'pending', 'finding'],
    ]);
    const poison = body.find((review) => review.server === 'poison');
    // Never pinned: every line of the definition is new.
    expect(poison?.pinnedDigest).toBeUndefined();
    expect(poison?.diff.every((line) => line.kind === 'added')).toBe(true);
    expect(poison?.diff.map((line) => line.text)).toContain('name: add');
    const file = poison?.findings.find((finding) => finding.code === 'SENSITIVE_FILE_ACCESS');
    expect(file).toMatchObject({ field: 'description', severity: expect.stringMatching(/high|critical/) });
    // The span and its context put back together are the description's text.
    expect(`${file?.before}${file?.flagged}${file?.after}`).toContain('read ~/.cursor/mcp.json');
    expect(file?.flagged).toContain('~/.cursor/mcp.json');
    const shadowing = body.find((review) => review.server === 'calc')?.findings;
    expect(shadowing?.map((finding) => finding.code)).toContain('NAMES_OTHER_SERVER_TOOL');
  });

  it('approves one tool: it is served, and the page hears of it', async () => {
    expect(await toolNames('poison')).toEqual(['sub']);
    const { status, body } = await ui.api<UiTrustDecision>('POST', '/api/trust/approve', {
      server: 'poison',
      tool: 'add',
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      decision: 'approved',
      records: [expect.objectContaining({ server: 'poison', tool: 'add', status: 'approved' })],
    });
    await events.next(eventOf('trust'));
    expect(await toolNames('poison')).toEqual(['add', 'sub']);
    const left = (await ui.api<UiTrustReview[]>('GET', '/api/trust')).body;
    expect(left.map((review) => `${review.server}/${review.tool}`)).toEqual(['calc/add']);
  });

  it('refuses a body without a server (400), and a decision with nothing pending (404)', async () => {
    const bad = await ui.api<UiErrorBody>('POST', '/api/trust/reject', { tool: 'add' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('UI_BAD_REQUEST');
    expect(bad.body.error.message).toContain('"server"');
    // Approved already: nothing of it waits.
    const none = await ui.api<UiErrorBody>('POST', '/api/trust/approve', { server: 'poison', tool: 'add' });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('Nothing waits for review for tool "add" of "poison"');
  });
});
