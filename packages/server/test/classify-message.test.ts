import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { expect, test } from 'vitest';
import { isPlainLegacyMessage } from '../src/dispatch/classify-message.js';
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
