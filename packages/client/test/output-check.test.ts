import { join } from 'node:path';
import { SwitchboardError } from '@switchboard/core';
import { createTemporaryDirectory, memoryStdio } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import { fixture } from './helpers/servers.js';

const structuredServer = fixture('structured-server.mjs');

describe('structured output is checked against the tool outputSchema', () => {
  const open: McpConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => connection.close()));
  });

  async function connect(): Promise<McpConnection> {
    const connection = await connectMcp(
      { weather: { command: process.execPath, args: [structuredServer] } },
      { approval: 'never' },
    );
    open.push(connection);
    return connection;
  }

  it('passes conforming output and rejects output that breaks the schema, naming tool and problem', async () => {
    const connection = await connect();
    const good = await connection.tools['mcp__weather__good-weather']!.execute!({});
    expect(JSON.stringify(good)).toContain('sunny');

    const bad = await connection.tools['mcp__weather__bad-weather']!.execute!({}).catch(
      (error: unknown) => error,
    );
    expect(SwitchboardError.isInstance(bad)).toBe(true);
    expect((bad as SwitchboardError).code).toBe('OUTPUT_INVALID');
    expect((bad as SwitchboardError).message).toContain('mcp__weather__bad-weather');
    expect((bad as SwitchboardError).message).toContain('temperature');
    expect((bad as SwitchboardError).message).toContain('conditions');

    const missing = await connection.tools['mcp__weather__no-structure']!.execute!({}).catch(
      (error: unknown) => error,
    );
    expect((missing as SwitchboardError).code).toBe('OUTPUT_INVALID');
    expect((missing as SwitchboardError).message).toContain('no structuredContent');

    // An error result carries no structured content by design: it is not an output violation.
    const failing = await connection.tools['mcp__weather__failing-weather']!.execute!({});
    expect(JSON.stringify(failing)).toContain('sensor is offline');

    // The server keeps serving, and the metrics count the two bad outputs as errors.
    expect(JSON.stringify(await connection.tools['mcp__weather__good-weather']!.execute!({}))).toContain(
      'sunny',
    );
    const tools = connection.metrics().tools.weather ?? {};
    expect(tools['bad-weather']?.errors).toBe(1);
    expect(tools['no-structure']?.errors).toBe(1);
    expect(tools['good-weather']?.errors).toBe(0);
  });

  it('accepts the real structured output of server-memory', async () => {
    using dir = createTemporaryDirectory('sb-output-');
    const connection = await connectMcp(
      { memory: memoryStdio(join(dir.path, 'memory.jsonl')) },
      { approval: 'never' },
    );
    open.push(connection);
    await connection.tools.mcp__memory__create_entities!.execute!({
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    const tool = connection.tools.mcp__memory__read_graph!;
    expect(tool.outputSchema).toBeDefined();
    const result = await tool.execute!({});
    expect(JSON.stringify(result)).toContain('Ada');
    await connection.close();
  });
});
