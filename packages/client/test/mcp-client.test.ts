import { type EverythingHttpServer, everythingStdio, startEverythingHttp } from '@switchboard/test-helpers';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';

describe('createMcpClient', () => {
  const open: McpClient[] = [];
  const servers: EverythingHttpServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('connects to server-everything over stdio, lists and calls tools', async () => {
    const client = await createMcpClient('everything', everythingStdio());
    open.push(client);
    expect(client.serverInfo?.name).toBeTruthy();
    expect(client.capabilities?.tools).toBeDefined();
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(await client.listTools()).toBe(tools);
    const result = await client.callTool('echo', { message: 'hi there' });
    expect(JSON.stringify(result.content)).toContain('hi there');
  });

  it('connects over Streamable HTTP', async () => {
    const server = await startEverythingHttp('streamableHttp');
    servers.push(server);
    const client = await createMcpClient('everything-http', { url: server.url });
    open.push(client);
    expect(client.transportKind).toBe('http');
    const result = await client.callTool('echo', { message: 'over http' });
    expect(JSON.stringify(result.content)).toContain('over http');
  });

  it('falls back to legacy SSE when the URL does not speak Streamable HTTP', async () => {
    const server = await startEverythingHttp('sse');
    servers.push(server);
    const client = await createMcpClient('everything-sse', { url: server.url });
    open.push(client);
    expect(client.transportKind).toBe('sse');
    const result = await client.callTool('echo', { message: 'over sse' });
    expect(JSON.stringify(result.content)).toContain('over sse');
  });

  it('reads resources, templates, prompts, completions and sets the log level', async () => {
    const logs: unknown[] = [];
    const client = await createMcpClient('everything', everythingStdio(), {
      onLog: (message) => logs.push(message),
    });
    open.push(client);
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const read = await client.readResource(first.uri);
    expect(read.contents[0]?.uri).toBe(first.uri);
    const templates = await client.listResourceTemplates();
    expect(templates.length).toBeGreaterThan(0);
    const prompts = await client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    const simple = prompts.find((prompt) => !prompt.arguments?.some((argument) => argument.required));
    const prompt = await client.getPrompt(simple!.name);
    expect(prompt.messages.length).toBeGreaterThan(0);
    await client.setLoggingLevel('debug');
    await client.ping();
    if (client.capabilities?.resources?.subscribe) {
      await client.subscribeResource(first.uri);
      await client.unsubscribeResource(first.uri);
    }
  });

  it('reports progress and cancels a call on abort', async () => {
    const client = await createMcpClient('everything', everythingStdio());
    open.push(client);
    const tools = await client.listTools();
    const slow = tools.find((tool) => /long-running|longRunning/i.test(tool.name));
    expect(slow).toBeDefined();
    const progress: number[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      slow!.name,
      { duration: 30, steps: 30 },
      {
        signal: controller.signal,
        onProgress: (update) => {
          progress.push(update.progress);
          if (progress.length === 2) controller.abort();
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // The session stays usable after a cancelled call.
    const echo = await client.callTool('echo', { message: 'still here' });
    expect(JSON.stringify(echo.content)).toContain('still here');
  });

  it('answers the server with user handlers for sampling, elicitation and roots (declared only when given)', async () => {
    const plain = await createMcpClient('plain', everythingStdio());
    open.push(plain);
    const plainTools = (await plain.listTools()).map((tool) => tool.name);
    expect(plainTools).not.toContain('trigger-sampling-request');

    const asked: string[] = [];
    const client = await createMcpClient('everything', everythingStdio(), {
      sampling: (params, context) => {
        asked.push(`sampling from ${context.server}`);
        expect(params.messages.length).toBeGreaterThan(0);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'a sampled answer' },
          model: 'test-model',
        };
      },
      elicitation: (params) => {
        asked.push(`elicitation: ${params.message}`);
        return { action: 'accept', content: {} };
      },
      roots: () => [{ uri: 'file:///tmp/switchboard-root', name: 'switchboard-root' }],
    });
    open.push(client);
    const tools = (await client.listTools({ refresh: true })).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['trigger-sampling-request', 'get-roots-list']));
    const sampled = await client.callTool('trigger-sampling-request', { prompt: 'say something' });
    expect(JSON.stringify(sampled)).toContain('a sampled answer');
    const roots = await client.callTool('get-roots-list', {});
    expect(JSON.stringify(roots)).toContain('switchboard-root');
    if (tools.includes('trigger-elicitation-request')) {
      await client.callTool('trigger-elicitation-request', {});
      expect(asked.some((line) => line.startsWith('elicitation'))).toBe(true);
    }
    expect(asked).toContain('sampling from everything');
  });
});
