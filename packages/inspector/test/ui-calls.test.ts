/**
 * Calls from the page over real HTTP and the live stream, against real server-everything and
 * server-filesystem: results (text, image), validation before sending, progress and cancel, a
 * server's elicitation and sampling answered through the API, approval of a destructive tool, and
 * the protocol log — with a secret of the config nowhere in what the page gets.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesystemStdio, serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiCall, UiCallStarted, UiErrorBody, UiLogEntry, UiPendingRequest } from '../src/ui-api.js';
import { type EventReader, eventOf, startUi, type UiHarness } from './inspector-harness.js';

const secret = 'ui-secret-3b7d9f1a2c';

let ui: UiHarness;
let events: EventReader;
let files: string;

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), 'switchboard-ui-calls-'));
  ui = await startUi({
    everything: {
      command: process.execPath,
      args: [serverScript('server-everything'), 'stdio'],
      env: { UI_TEST_SECRET: secret },
    },
    files: filesystemStdio(files),
  });
  events = await ui.events();
});
afterAll(async () => {
  await ui?.close();
});

async function startCall(server: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const { status, body } = await ui.api<UiCallStarted>('POST', '/api/calls', {
    server,
    tool,
    arguments: args,
  });
  expect(status, JSON.stringify(body)).toBe(202);
  return body.callId;
}

const callEnd = (callId: string) => events.next(eventOf('call-end', (event) => event.call.callId === callId));
const pendingOf = async <K extends UiPendingRequest['kind']>(
  kind: K,
  condition: (request: Extract<UiPendingRequest, { kind: K }>) => boolean,
): Promise<{ request: Extract<UiPendingRequest, { kind: K }> }> => {
  const event = await events.next(
    eventOf(
      'pending',
      (candidate) =>
        candidate.request.kind === kind &&
        condition(candidate.request as Extract<UiPendingRequest, { kind: K }>),
    ),
  );
  return { request: event.request as Extract<UiPendingRequest, { kind: K }> };
};
const textOf = (call: UiCall) =>
  JSON.stringify((call.result as { content?: unknown })?.content ?? call.result);

describe('switchboard ui: calls', () => {
  it('starts with the servers and calls echo: the end comes over the live stream with the text', async () => {
    expect(events.received[0]).toMatchObject({ type: 'servers' });
    const callId = await startCall('everything', 'echo', { message: 'hello from the page' });
    const { call } = await callEnd(callId);
    expect(call).toMatchObject({ state: 'done', server: 'everything', tool: 'echo' });
    expect(textOf(call)).toContain('hello from the page');
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    const again = await ui.api<UiCall>('GET', `/api/calls/${callId}`);
    expect(again.body.state).toBe('done');
    expect((await ui.api<UiCall[]>('GET', '/api/calls')).body.some((item) => item.callId === callId)).toBe(
      true,
    );
  });

  it('refuses invalid arguments with 422 and a JSON Pointer per field, sending nothing', async () => {
    const sentBefore = ui.session
      .log({ server: 'everything' })
      .filter((entry) => entry.method === 'tools/call').length;
    const { status, body } = await ui.api<UiErrorBody>('POST', '/api/calls', {
      server: 'everything',
      tool: 'get-sum',
      arguments: { a: 'three' },
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    const paths = body.error.fields?.map((field) => field.path);
    expect(paths).toEqual(expect.arrayContaining(['/a', '/b']));
    expect(body.error.fields?.find((field) => field.path === '/a')?.message).toContain('number');
    const sentAfter = ui.session
      .log({ server: 'everything' })
      .filter((entry) => entry.method === 'tools/call').length;
    expect(sentAfter).toBe(sentBefore);
  });

  it('returns get-tiny-image’s image content as the server sent it', async () => {
    const { call } = await callEnd(await startCall('everything', 'get-tiny-image', {}));
    const content = (call.result as { content: Array<{ type: string; mimeType?: string; data?: string }> })
      .content;
    const image = content.find((item) => item.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(image?.data?.length).toBeGreaterThan(100);
  });

  it('streams progress of a long-running tool, then cancels it', async () => {
    const callId = await startCall('everything', 'trigger-long-running-operation', {
      duration: 60,
      steps: 60,
    });
    const progress = await events.next(eventOf('call-progress', (event) => event.callId === callId));
    expect(progress.progress.total).toBe(60);
    expect((await ui.api<UiCall>('GET', `/api/calls/${callId}`)).body).toMatchObject({
      state: 'running',
      progress: { total: 60 },
    });
    const cancelled = await ui.api<UiCall>('POST', `/api/calls/${callId}/cancel`);
    expect(cancelled.status).toBe(200);
    const { call } = await callEnd(callId);
    expect(call.state).toBe('cancelled');
    // The server was told.
    const log = ui.session.log({ server: 'everything' });
    expect(log.some((entry) => entry.direction === 'out' && entry.method === 'notifications/cancelled')).toBe(
      true,
    );
  });

  it('puts a server’s elicitation to the page and gives the server the answer', async () => {
    const callId = await startCall('everything', 'trigger-elicitation-request', {});
    const { request } = await pendingOf('elicitation', (candidate) => candidate.callId === callId);
    expect(request).toMatchObject({
      server: 'everything',
      message: expect.stringContaining('Please provide'),
    });
    expect(request.requestedSchema).toMatchObject({ properties: { name: { type: 'string' } } });
    expect((await ui.api<UiPendingRequest[]>('GET', '/api/pending')).body.map((item) => item.id)).toContain(
      request.id,
    );
    const bad = await ui.api<UiErrorBody>('POST', `/api/pending/${request.id}`, { approved: true });
    expect(bad.status).toBe(400);
    const answered = await ui.api('POST', `/api/pending/${request.id}`, {
      action: 'accept',
      content: { name: 'Ada Lovelace' },
    });
    expect(answered.status).toBe(200);
    await events.next(eventOf('pending-done', (event) => event.id === request.id));
    const { call } = await callEnd(callId);
    expect(call.state).toBe('done');
    expect(textOf(call)).toContain('Ada Lovelace');
    expect(
      (await ui.api<UiErrorBody>('POST', `/api/pending/${request.id}`, { action: 'decline' })).body.error
        .code,
    ).toBe('UI_UNKNOWN_PENDING');
  });

  it('puts a server’s sampling request to the page; the person writes the reply', async () => {
    const callId = await startCall('everything', 'trigger-sampling-request', {
      prompt: 'say hi',
      maxTokens: 10,
    });
    const { request } = await pendingOf('sampling', (candidate) => candidate.callId === callId);
    expect(JSON.stringify(request.params)).toContain('say hi');
    await ui.api('POST', `/api/pending/${request.id}`, { action: 'accept', text: 'hi, from a person' });
    const { call } = await callEnd(callId);
    expect(textOf(call)).toContain('hi, from a person');
  });

  it('asks before a destructive tool: deny refuses it, approve runs it', async () => {
    const target = join(files, 'written.txt');
    const deniedId = await startCall('files', 'write_file', { path: target, content: 'approved text' });
    expect((await ui.api<UiCall>('GET', `/api/calls/${deniedId}`)).body.state).toBe('awaiting-approval');
    const ask = await pendingOf('approval', (candidate) => candidate.callId === deniedId);
    expect(ask.request).toMatchObject({ server: 'files', tool: 'write_file', arguments: { path: target } });
    expect(ask.request.reason.length).toBeGreaterThan(0);
    await ui.api('POST', `/api/pending/${ask.request.id}`, { approved: false });
    const denied = await callEnd(deniedId);
    expect(denied.call).toMatchObject({ state: 'refused', error: { code: 'APPROVAL_DENIED' } });
    expect(existsSync(target)).toBe(false);

    const approvedId = await startCall('files', 'write_file', { path: target, content: 'approved text' });
    const second = await pendingOf('approval', (candidate) => candidate.callId === approvedId);
    await ui.api('POST', `/api/pending/${second.request.id}`, { approved: true });
    expect((await callEnd(approvedId)).call.state).toBe('done');
    expect(readFileSync(target, 'utf8')).toBe('approved text');
  });

  it('withdraws the approval question when its call is cancelled', async () => {
    const callId = await startCall('files', 'write_file', { path: join(files, 'never.txt'), content: 'x' });
    const ask = await pendingOf('approval', (candidate) => candidate.callId === callId);
    await ui.api('POST', `/api/calls/${callId}/cancel`);
    await events.next(eventOf('pending-done', (event) => event.id === ask.request.id));
    expect((await callEnd(callId)).call.state).toBe('cancelled');
    expect(existsSync(join(files, 'never.txt'))).toBe(false);
  });
});

describe('switchboard ui: the protocol log', () => {
  it('has every message in and out, responses named after their request, and no secret', async () => {
    const { call } = await callEnd(await startCall('everything', 'get-env', {}));
    // The server did report its environment; the page got it masked.
    expect(textOf(call)).toContain('UI_TEST_SECRET');
    expect(JSON.stringify(call)).not.toContain(secret);
    const log = (await ui.api<UiLogEntry[]>('GET', '/api/log?server=everything')).body;
    expect(
      log.some(
        (entry) => entry.direction === 'out' && entry.type === 'request' && entry.method === 'initialize',
      ),
    ).toBe(true);
    const request = log.findLast((entry) => entry.direction === 'out' && entry.method === 'tools/call');
    const response = log.find(
      (entry) => entry.direction === 'in' && entry.type === 'response' && entry.id === request?.id,
    );
    expect(response?.method).toBe('tools/call');
    expect(JSON.stringify(response?.message)).toContain('[REDACTED]');
    expect(new Set(log.map((entry) => entry.server))).toEqual(new Set(['everything']));
    const all = await fetch(`${ui.server.origin}/api/log`, {
      headers: { 'x-switchboard-token': ui.server.token },
    });
    const text = await all.text();
    expect(text).toContain('"server":"files"');
    expect(text).not.toContain(secret);
    const since = log.at(-1)?.seq ?? 0;
    expect((await ui.api<UiLogEntry[]>('GET', `/api/log?since=${since}&server=everything`)).body).toEqual([]);
    // The live events carry the same entries, in batches.
    await events.next(eventOf('log', (event) => event.entries.some((entry) => entry.seq === request?.seq)));
    expect(JSON.stringify(events.received)).not.toContain(secret);
  });
});
