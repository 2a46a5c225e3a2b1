import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { expect, test } from 'vitest';
import {
  classifyMessage,
  isPlainLegacyMessage,
  rememberedModernRoute,
} from '../src/dispatch/classify-message.js';
import { checkJsonRpcMessage } from '../src/protocol/json-rpc-message.js';
import { createFuzzer } from './fuzz-inputs.js';

// The shortcut must never disagree with the SDK: whatever it calls plain 2025 traffic, the SDK's
// classifier routes to the 2025 era too.
test('isPlainLegacyMessage agrees with classifyInboundRequest on 20,000 fuzz inputs and headers', () => {
  const fuzzer = createFuzzer(7);
  const headers = [undefined, '2025-06-18', '2025-11-25', '2026-07-28', ' 2026-07-28 ', 'v999', ''];
  let shortcuts = 0;
  let modern = 0;
  for (let index = 0; index < 20_000; index++) {
    const input = fuzzer.next();
    let body: unknown;
    try {
      body = JSON.parse(input.text);
    } catch {
      continue;
    }
    if ('error' in checkJsonRpcMessage(body)) continue;
    const header = input.headers?.['mcp-protocol-version'] ?? headers[index % headers.length];
    const sdk = classifyInboundRequest({
      httpMethod: 'POST',
      body,
      ...(header !== undefined ? { protocolVersionHeader: header } : {}),
    });
    if (sdk.kind === 'modern') modern += 1;
    if (!isPlainLegacyMessage(body, header)) continue;
    shortcuts += 1;
    expect(sdk.kind, `${input.text} with header ${String(header)}`).toBe('legacy');
  }
  expect(shortcuts).toBeGreaterThan(5000);
  expect(modern).toBeGreaterThan(500);
});

// The envelope memo must never disagree with the SDK either: a request it routes at once is one
// the SDK's classifier calls a 2026-07-28 request of a served revision, headers included.
test('rememberedModernRoute agrees with classifyInboundRequest on 20,000 fuzz inputs and headers', () => {
  const fuzzer = createFuzzer(11);
  const versions = [undefined, '2025-11-25', '2026-07-28', ' 2026-07-28', 'v999'];
  let remembered = 0;
  for (let index = 0; index < 20_000; index++) {
    const input = fuzzer.next();
    let body: unknown;
    try {
      body = JSON.parse(input.text);
    } catch {
      continue;
    }
    if ('error' in checkJsonRpcMessage(body)) continue;
    const method = (body as { method?: unknown }).method;
    const methodHeaders = [undefined, typeof method === 'string' ? method : 'tools/call', 'tools/list'];
    const inbound = {
      httpMethod: 'POST',
      body,
      ...withHeader('protocolVersionHeader', input.headers?.['mcp-protocol-version'] ?? versions[index % 5]),
      ...withHeader('mcpMethodHeader', input.headers?.['mcp-method'] ?? methodHeaders[index % 3]),
    };
    // Twice: the first classification may be the one that teaches the memo.
    classifyMessage(inbound, true);
    const route = rememberedModernRoute(inbound);
    if (route === undefined) continue;
    remembered += 1;
    const sdk = classifyInboundRequest(inbound);
    expect(sdk.kind === 'modern' && sdk.messageKind, input.text).toBe('request');
    expect(classifyMessage(inbound, false)).toEqual(route);
  }
  expect(remembered).toBeGreaterThan(200);
});

function withHeader(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value };
}
