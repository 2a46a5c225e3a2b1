/**
 * Bad input in the 2026-07-28 era: malformed or missing `_meta`, an unknown protocol version, a
 * header that disagrees with the body or is missing. Each gets the error and HTTP status the spec
 * names, with the request's id, and the server keeps serving.
 */

import { envelope, post } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ServeHandle, serve } from '../src/index.js';
import { createEchoServer } from './fixtures/echo-server.js';

let handle: ServeHandle & { url: string };
beforeAll(async () => {
  handle = (await serve(createEchoServer(), { transport: { type: 'http', port: 0 } })) as ServeHandle & {
    url: string;
  };
});
afterAll(() => handle.close());

const echo = (extra: Record<string, unknown> = {}) => ({
  name: 'echo',
  arguments: { message: 'x' },
  ...extra,
});

describe('2026-07-28 requests with bad input', () => {
  test('a header naming 2026-07-28 without the _meta envelope: -32602 over 400, naming the missing key', async () => {
    const answer = await post(handle.url, 'tools/call', echo());
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe(-32602);
    expect(answer.body.error?.message).toMatch(/_meta/);
    expect(answer.body.id).toBeDefined();
  });

  test('an envelope without clientCapabilities, or with a malformed one: -32602 over 400', async () => {
    const missing = await post(
      handle.url,
      'tools/call',
      echo({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe(-32602);
    expect(missing.body.error?.message).toMatch(/clientCapabilities/);
    const malformed = await post(
      handle.url,
      'tools/call',
      echo({ _meta: { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': 'all of them' } }),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.error?.code).toBe(-32602);
  });

  test('an unknown protocol version: -32022 over 400, listing the supported ones and echoing it', async () => {
    const answer = await post(
      handle.url,
      'tools/call',
      echo({ _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }),
      { 'mcp-protocol-version': '2099-01-01' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2099-01-01' },
    });
  });

  test('headers that disagree with the body, or are missing: -32020 over 400', async () => {
    const cases: Array<Record<string, string | undefined>> = [
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-method': 'tools/list' },
      { 'mcp-name': 'add' },
      { 'mcp-name': '=?base64?not*base64?=' },
      { 'mcp-method': undefined },
      { 'mcp-name': undefined },
      { 'mcp-protocol-version': undefined },
    ];
    for (const headers of cases) {
      const answer = await post(handle.url, 'tools/call', echo({ _meta: envelope() }), headers);
      expect(answer.status, JSON.stringify(headers)).toBe(400);
      expect(answer.body.error?.code, JSON.stringify(headers)).toBe(-32020);
    }
    // A base64 Mcp-Name that decodes to the body's name passes.
    const encoded = await post(handle.url, 'tools/call', echo({ _meta: envelope() }), {
      'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=`,
    });
    expect(encoded.body.result).toMatchObject({ content: [{ text: 'Echo: x' }] });
  });

  test('a 2025 method or an unknown one: -32601 over 404', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'no/such']) {
      const answer = await post(handle.url, method, { _meta: envelope() });
      expect(answer.status, method).toBe(404);
      expect(answer.body.error?.code, method).toBe(-32601);
    }
  });

  test('a batch with a 2026-07-28 request is refused; the server keeps serving both eras', async () => {
    const batch = await post(
      handle.url,
      'tools/list',
      {},
      {},
      JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }]),
    );
    expect(batch.status).toBe(400);
    expect(batch.body.error?.code).toBe(-32600);
    const modern = await post(handle.url, 'tools/call', echo({ _meta: envelope() }));
    expect(modern.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Echo: x' }] });
    const legacy = await post(handle.url, 'tools/call', echo(), {
      'mcp-protocol-version': '2025-06-18',
      'mcp-method': undefined,
      'mcp-name': undefined,
    });
    expect(legacy.body.result).toMatchObject({ content: [{ text: 'Echo: x' }] });
    expect(legacy.body.result?.resultType).toBeUndefined();
  });
});
