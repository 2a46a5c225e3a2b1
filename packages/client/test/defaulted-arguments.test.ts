import { SwitchboardError } from '@switchboard/core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { connectMcp } from '../src/index.js';
import { fixture } from './helpers/servers.js';

describe('argument validation never refuses what the server accepts', () => {
  it('calls a tool with `{}` when its required property has a default, and still refuses a wrong value', async () => {
    const connection = await connectMcp(
      { shots: { command: process.execPath, args: [fixture('defaulted-server.mjs')] } },
      { approval: 'never' },
    );
    onTestFinished(() => connection.close());
    const tool = connection.tools['mcp__shots__take_screenshot']!;
    const result = await tool.execute!({}, { rawResult: true });
    expect(JSON.stringify(result)).toContain('screenshot at css scale');

    const wrong = await tool.execute!({ scale: 'huge' }).catch((error: unknown) => error);
    expect(SwitchboardError.isInstance(wrong)).toBe(true);
    expect((wrong as SwitchboardError).code).toBe('VALIDATION_FAILED');
  });
});
