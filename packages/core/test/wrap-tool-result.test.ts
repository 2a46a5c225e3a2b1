import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverScript } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WrappedToolResult } from '../src/index.js';
import { SwitchboardError, wrapToolResult } from '../src/index.js';

type Success = Extract<WrappedToolResult, { status: 'success' }>;
type Failure = Extract<WrappedToolResult, { status: 'error' }>;

const pngBase64 = Buffer.alloc(3000, 7).toString('base64');

describe('wrapToolResult on real server-everything results', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'core-wrap-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [serverScript('server-everything'), 'stdio'],
        stderr: 'ignore',
      }),
    );
  });

  afterAll(async () => {
    await client?.close();
  });

  it('text', async () => {
    const wrapped = wrapToolResult(await client.callTool({ name: 'echo', arguments: { message: 'hello' } }));
    expect(wrapped).toEqual({ status: 'success', message: 'Echo: hello' });
  });

  it('image: summarised, never dumped', async () => {
    const raw = await client.callTool({ name: 'get-tiny-image', arguments: {} });
    const wrapped = wrapToolResult(raw) as Success;
    expect(wrapped.status).toBe('success');
    expect(wrapped.message).toMatch(/\[image: image\/png, [\d.]+ (B|KB)\]/);
    const image = (raw.content as Array<{ type: string; data?: string }>).find(
      (block) => block.type === 'image',
    );
    expect(wrapped.message).not.toContain(image?.data?.slice(0, 40));
    expect(wrapped.attachments?.[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(wrapped.attachments?.[0]?.size).toBe(Buffer.from(image?.data ?? '', 'base64').length);
    expect(wrapped.attachments?.[0]?.data).toBeUndefined();
    const withBinary = wrapToolResult(raw, { includeBinary: true }) as Success;
    expect(withBinary.attachments?.[0]?.data).toBe(image?.data);
    expect(withBinary.message).toBe(wrapped.message);
  });

  it('resource links', async () => {
    const wrapped = wrapToolResult(
      await client.callTool({ name: 'get-resource-links', arguments: { count: 2 } }),
    ) as Success;
    expect(wrapped.message).toContain(
      '[resource link: Blob Resource 1, demo://resource/dynamic/blob/1, text/plain]',
    );
    expect(wrapped.attachments).toHaveLength(2);
    expect(wrapped.attachments?.[1]).toMatchObject({
      type: 'resource_link',
      uri: 'demo://resource/dynamic/text/2',
    });
  });

  it('embedded text and blob resources', async () => {
    const text = wrapToolResult(
      await client.callTool({
        name: 'get-resource-reference',
        arguments: { resourceType: 'Text', resourceId: 1 },
      }),
    ) as Success;
    expect(text.message).toMatch(
      /\[resource: demo:\/\/resource\/dynamic\/text\/1, text\/plain\]\nResource 1: /,
    );
    const blob = wrapToolResult(
      await client.callTool({
        name: 'get-resource-reference',
        arguments: { resourceType: 'Blob', resourceId: 2 },
      }),
    ) as Success;
    expect(blob.message).toMatch(/\[resource: demo:\/\/resource\/dynamic\/blob\/2, text\/plain, \d+ B\]/);
    expect(blob.attachments?.[0]?.type).toBe('resource');
  });

  it('structured content becomes data', async () => {
    const wrapped = wrapToolResult(
      await client.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } }),
    ) as Success;
    expect(wrapped.data).toMatchObject({ conditions: expect.any(String), temperature: expect.any(Number) });
    expect(JSON.parse(wrapped.message)).toEqual(wrapped.data);
  });

  it('an isError result from the server', async () => {
    const raw = await client.callTool({ name: 'get-sum', arguments: { a: 'not a number', b: 2 } });
    const wrapped = wrapToolResult(raw) as Failure;
    expect(wrapped.status).toBe('error');
    expect(wrapped.error.length).toBeGreaterThan(0);
  });
});

describe('wrapToolResult', () => {
  it('audio and unknown content types', () => {
    const wrapped = wrapToolResult({
      content: [
        { type: 'audio', data: pngBase64, mimeType: 'audio/wav' },
        { type: 'hologram', payload: 1 },
      ],
    }) as Success;
    expect(wrapped.message).toBe(
      '[audio: audio/wav, 2.9 KB]\n\n[content of unsupported type "hologram": {\n  "type": "hologram",\n  "payload": 1\n}]',
    );
  });

  it('structuredContent without a text mirror is shown as JSON', () => {
    const wrapped = wrapToolResult({ content: [], structuredContent: { a: 1 } }) as Success;
    expect(wrapped).toEqual({ status: 'success', message: '{\n  "a": 1\n}', data: { a: 1 } });
  });

  it('isError without details names the tool', () => {
    expect(wrapToolResult({ content: [], isError: true }, { toolName: 'mcp__fs__write' })).toEqual({
      status: 'error',
      error: 'Tool "mcp__fs__write" reported an error without details.',
    });
  });

  it('truncates to the budget with a marker of what was cut', () => {
    const text = 'x'.repeat(1000);
    const wrapped = wrapToolResult({ content: [{ type: 'text', text }] }, { maxOutputChars: 200 }) as Success;
    expect(wrapped.message.length).toBeLessThanOrEqual(200);
    expect(wrapped.message).toMatch(/^x+\n…\[truncated: \d+ of 1000 characters cut\]$/);
    const kept = wrapped.message.indexOf('\n');
    expect(wrapped.truncated).toEqual({
      omittedChars: 1000 - kept,
      totalChars: 1000,
      omittedItems: 0,
      totalItems: 1,
    });
    expect(wrapped.message).toContain(`${1000 - kept} of 1000`);
    expect(wrapped.instruction).toMatch(/truncated to 200 characters/);
  });

  it('counts whole items left out', () => {
    const content = Array.from({ length: 5 }, (_, index) => ({ type: 'text', text: `${index}`.repeat(100) }));
    const wrapped = wrapToolResult({ content }, { maxOutputChars: 300 }) as Success;
    expect(wrapped.message.length).toBeLessThanOrEqual(300);
    expect(wrapped.truncated?.totalItems).toBe(5);
    // Two items fit, the third is cut partway, the last two are left out.
    expect(wrapped.truncated?.omittedItems).toBe(2);
    expect(wrapped.message).toContain(`${wrapped.truncated?.omittedItems} of 5 content items omitted`);
    expect(wrapped.message.startsWith('0'.repeat(100))).toBe(true);
  });

  it('leaves results within budget alone, and keeps the given instruction', () => {
    const wrapped = wrapToolResult(
      { content: [{ type: 'text', text: 'ok' }] },
      { instruction: 'Summarise for the user.' },
    );
    expect(wrapped).toEqual({ status: 'success', message: 'ok', instruction: 'Summarise for the user.' });
  });

  it('accepts local values, legacy toolResult and errors', () => {
    expect(wrapToolResult('plain')).toEqual({ status: 'success', message: 'plain' });
    expect(wrapToolResult({ count: 2 })).toEqual({
      status: 'success',
      message: '{\n  "count": 2\n}',
      data: { count: 2 },
    });
    expect(wrapToolResult({ toolResult: 'old' })).toEqual({ status: 'success', message: 'old', data: 'old' });
    const error = new SwitchboardError({
      code: 'TIMEOUT',
      message: 'timed out after 5 s',
      context: { server: 'fs' },
    });
    expect(wrapToolResult(error)).toEqual({
      status: 'error',
      error: 'timed out after 5 s',
      data: { server: 'fs' },
    });
  });

  it('takes a custom shape', () => {
    const shaped = wrapToolResult(
      { content: [{ type: 'text', text: 'hi' }], isError: false },
      { shape: (parts) => ({ ok: !parts.isError, text: parts.message }) },
    );
    expect(shaped).toEqual({ ok: true, text: 'hi' });
  });

  it('rejects a bad budget', () => {
    expect(() => wrapToolResult('x', { maxOutputChars: 0 })).toThrow(
      /maxOutputChars must be a positive integer/,
    );
  });
});
