// The provider converters (core's toAnthropicToolResult, toOpenAIToolOutput,
// toGeminiFunctionResponse, re-exported by the client) on results of a real server-everything,
// and the plural tool helpers over a real connection: exact native shapes, budgets, stand-ins.

import { everythingStdio } from '@switchboard/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  type McpConnection,
  toAnthropicToolResult,
  toAnthropicTools,
  toGeminiFunctionResponse,
  toGeminiTools,
  toOpenAIToolOutput,
  toOpenAITools,
} from '../src/index.js';

let connection: McpConnection;
beforeAll(async () => {
  connection = await connectMcp({ everything: everythingStdio() }, { approval: 'never' });
});
afterAll(async () => {
  await connection?.close();
});

/** A tool's result as the server sent it. */
async function raw(name: string, args: Record<string, unknown> = {}) {
  const tool = connection.tools[`mcp__everything__${name}`];
  if (tool?.execute === undefined) throw new Error(`no tool ${name}`);
  return (await tool.execute(args, { rawResult: true })) as {
    content: Array<{ type: string; data?: string; text?: string; mimeType?: string }>;
  };
}

/** The one image of get-tiny-image, as base64. */
async function tinyImage() {
  const result = await raw('get-tiny-image');
  const image = result.content.find((item) => item.type === 'image');
  expect(image?.mimeType).toBe('image/png');
  return { result, data: image?.data as string };
}

// A gzip file over stdio, without the network (server-everything fetches `data:` URIs itself).
const gzipArgs = { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resource' };
const pdf = {
  content: [
    { type: 'text', text: 'The report:' },
    {
      type: 'resource',
      resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: 'JVBERi0xLjQK' },
    },
  ],
};

describe('toAnthropicToolResult', () => {
  it('gives text and the image as Anthropic blocks', async () => {
    const { result, data } = await tinyImage();
    const block = toAnthropicToolResult('toolu_1', result);
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: expect.stringContaining("Here's the image you requested") },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
      ],
    });
    expect(block).not.toHaveProperty('is_error');
  });

  it('puts an image over the media budget as a stand-in text', async () => {
    const { result } = await tinyImage();
    const block = toAnthropicToolResult('toolu_2', result, { maxMediaBytes: 100 });
    expect(block.content).toHaveLength(1);
    expect(block.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(
        /\[image image\/png \(.+\) not shown: over the 100 B budget of media per tool result\]/,
      ),
    });
  });

  it('sends a PDF as a document, and a file Anthropic cannot read as a stand-in', async () => {
    expect(toAnthropicToolResult('toolu_3', pdf).content).toEqual([
      { type: 'text', text: 'The report:\n\n[resource: file:///reports/q3.pdf, application/pdf, 9 B]' },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
    ]);
    const gzip = toAnthropicToolResult('toolu_4', await raw('gzip-file-as-resource', gzipArgs));
    expect(gzip.content).toEqual([
      {
        type: 'text',
        text: expect.stringContaining(
          'demo://resource/session/hello.txt.gz (25 B) not shown: this model does not take application/gzip files]',
        ),
      },
    ]);
  });

  it('flags an error result with is_error', () => {
    const block = toAnthropicToolResult('toolu_5', {
      isError: true,
      content: [{ type: 'text', text: 'disk full' }],
    });
    expect(block).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_5',
      content: [{ type: 'text', text: expect.stringContaining('disk full') }],
      is_error: true,
    });
  });
});

describe('toOpenAIToolOutput', () => {
  it('is a plain string for a text result', async () => {
    expect(toOpenAIToolOutput('call_1', await raw('echo', { message: 'hi' }))).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'Echo: hi',
    });
  });

  it('gives the image as input_image with a data URL', async () => {
    const { result, data } = await tinyImage();
    expect(toOpenAIToolOutput('call_2', result)).toEqual({
      type: 'function_call_output',
      call_id: 'call_2',
      output: [
        { type: 'input_text', text: expect.stringContaining("Here's the image you requested") },
        { type: 'input_image', image_url: `data:image/png;base64,${data}`, detail: 'auto' },
      ],
    });
  });

  it('gives a PDF as input_file named after its URI, and other files as stand-ins unless accepted', async () => {
    expect(toOpenAIToolOutput('call_3', pdf).output).toEqual([
      { type: 'input_text', text: expect.stringMatching(/^The report:/) },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0xLjQK', filename: 'q3.pdf' },
    ]);
    const gzip = await raw('gzip-file-as-resource', gzipArgs);
    expect(toOpenAIToolOutput('call_4', gzip).output).toEqual(
      expect.stringContaining('not shown: this model does not take application/gzip files'),
    );
    expect(toOpenAIToolOutput('call_5', gzip, { fileMimeTypes: ['application/gzip'] }).output).toEqual([
      {
        type: 'input_text',
        text: '[resource: demo://resource/session/hello.txt.gz, application/gzip, 25 B]',
      },
      {
        type: 'input_file',
        file_data: expect.stringMatching(/^data:application\/gzip;base64,H4sI/),
        filename: 'hello.txt.gz',
      },
    ]);
  });
});

describe('toGeminiFunctionResponse', () => {
  it('gives the text as response.output and the image as inlineData', async () => {
    const { result, data } = await tinyImage();
    expect(toGeminiFunctionResponse('get_tiny_image', result)).toEqual({
      functionResponse: {
        name: 'get_tiny_image',
        response: { output: expect.stringContaining("Here's the image you requested") },
        parts: [{ inlineData: { mimeType: 'image/png', data } }],
      },
    });
  });

  it('takes audio and text files, stands in for gzip, and answers an error as response.error', async () => {
    const audio = { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] };
    expect(toGeminiFunctionResponse('speak', audio).functionResponse.parts).toEqual([
      { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
    ]);
    const blob = await raw('get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    expect(toGeminiFunctionResponse('ref', blob).functionResponse.parts).toEqual([
      { inlineData: { mimeType: 'text/plain', data: expect.any(String) } },
    ]);
    const gzip = toGeminiFunctionResponse('gzip', await raw('gzip-file-as-resource', gzipArgs));
    expect(gzip.functionResponse).not.toHaveProperty('parts');
    expect(gzip.functionResponse.response).toEqual({
      output: expect.stringContaining('this model does not take application/gzip files'),
    });
    expect(
      toGeminiFunctionResponse('boom', { isError: true, content: [{ type: 'text', text: 'no such city' }] })
        .functionResponse.response,
    ).toEqual({ error: expect.stringContaining('no such city') });
  });
});

describe('the plural provider tool helpers', () => {
  it('give every tool of a connection in the provider shape, with the tool behind each name', async () => {
    const anthropic = toAnthropicTools(connection);
    expect(anthropic.tools.map((tool) => tool.name)).toEqual(Object.keys(connection.tools));
    expect(anthropic.tools.find((tool) => tool.name === 'mcp__everything__echo')).toMatchObject({
      description: expect.any(String),
      input_schema: { type: 'object', properties: { message: { type: 'string' } } },
    });
    // The name the model calls finds the tool; its raw result converts to the next message's block.
    const echo = anthropic.toolsByName.get('mcp__everything__echo');
    const block = toAnthropicToolResult(
      'toolu_9',
      await echo?.execute?.({ message: 'round' }, { rawResult: true }),
    );
    expect(block.content).toEqual([{ type: 'text', text: 'Echo: round' }]);

    const responses = toOpenAITools(connection, { strict: true });
    expect(responses.tools.find((tool) => tool.name === 'mcp__everything__echo')).toMatchObject({
      type: 'function',
      strict: true,
      parameters: { type: 'object', additionalProperties: false, required: ['message'] },
    });
    const chat = toOpenAITools(connection, { api: 'chat-completions' });
    expect(chat.tools[0]).toMatchObject({ type: 'function', function: { name: expect.any(String) } });

    const gemini = toGeminiTools(connection);
    expect(gemini.tools).toHaveLength(1);
    const declarations = gemini.tools[0]?.functionDeclarations ?? [];
    expect(declarations.find((tool) => tool.name === 'mcp__everything__get-sum')?.parameters).toMatchObject({
      type: 'OBJECT',
      properties: { a: { type: 'NUMBER' }, b: { type: 'NUMBER' } },
    });
    // What Gemini's schema cannot say is reported, per tool.
    expect(Object.values(gemini.lossy).flat().length).toBeGreaterThan(0);
  });

  it('make names provider-safe and keep them apart', () => {
    const tool = (name: string) => ({
      name,
      originalName: name,
      server: 'local',
      description: name,
      inputSchema: { type: 'object', properties: {} },
      execute: async () => ({ content: [] }),
    });
    const { tools } = toAnthropicTools([tool('weather.today'), tool('weather_today')]);
    expect(tools.map((entry) => entry.name)).toEqual(['weather_today', 'weather_today_2']);
  });
});
