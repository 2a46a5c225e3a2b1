/**
 * The conformance fixture: a server built only from @switchboard/server's public API that
 * implements what the official `@modelcontextprotocol/conformance` server scenarios ask for.
 * `createConformanceServer()` is used by `run.ts` and by the vitest test that runs the suite.
 */
import { z } from 'zod';
import { createMcpServer, defineTool, type McpServer } from '../src/index.js';

const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid, tiny WAV file: 8 kHz mono 8-bit, 8 samples of silence. */
function wavBase64(): string {
  const samples = 8;
  const buffer = Buffer.alloc(44 + samples);
  buffer.write('RIFF', 0);
  buffer.writeUInt32LE(36 + samples, 4);
  buffer.write('WAVE', 8);
  buffer.write('fmt ', 12);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(8000, 24);
  buffer.writeUInt32LE(8000, 28);
  buffer.writeUInt16LE(1, 32);
  buffer.writeUInt16LE(8, 34);
  buffer.write('data', 36);
  buffer.writeUInt32LE(samples, 40);
  buffer.fill(128, 44);
  return buffer.toString('base64');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the conformance server. */
export function createConformanceServer(): McpServer {
  const tools = [
    defineTool({
      name: 'test_simple_text',
      description: 'Returns simple text content',
      execute: () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Returns image content',
      execute: () => ({ content: [{ type: 'image', data: pngBase64, mimeType: 'image/png' }] }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Returns audio content',
      execute: () => ({ content: [{ type: 'audio', data: wavBase64(), mimeType: 'audio/wav' }] }),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource',
      execute: () => ({
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'test://embedded-resource',
              mimeType: 'text/plain',
              text: 'This is an embedded resource content.',
            },
          },
        ],
      }),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Returns text, image and resource content',
      execute: () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: pngBase64, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: JSON.stringify({ test: 'data', value: 123 }),
            },
          },
        ],
      }),
    }),
    defineTool({
      name: 'test_tool_with_logging',
      description: 'Sends log messages while running',
      execute: async (_args, { log }) => {
        await log('info', 'Tool execution started');
        await sleep(50);
        await log('info', 'Tool processing data');
        await sleep(50);
        await log('info', 'Tool execution completed');
        return 'Logging test completed';
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress while running',
      execute: async (_args, { progress }) => {
        await progress(0, 100);
        await sleep(50);
        await progress(50, 100);
        await sleep(50);
        await progress(100, 100);
        return 'Progress test completed';
      },
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails',
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'test_sampling',
      description: 'Asks the client for an LLM completion',
      input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
      execute: async ({ prompt }, { sample }) => {
        const result = await sample({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        const content = result.content as { type: string; text?: string };
        return `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`;
      },
    }),
    defineTool({
      name: 'test_elicitation',
      description: 'Asks the client for user input',
      input: z.object({ message: z.string().describe('The message to show the user') }),
      execute: async ({ message }, { elicit }) => {
        const result = await elicit({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicitation with default values',
      execute: async (_args, { elicit }) => {
        const result = await elicit({
          message: 'Please review your information',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', default: 'John Doe' },
              age: { type: 'integer', default: 30 },
              score: { type: 'number', default: 95.5 },
              status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', default: true },
            },
          },
        });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    defineTool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicitation with every enum form',
      execute: async (_args, { elicit }) => {
        const result = await elicit({
          message: 'Please choose',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
          } as never,
        });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
        },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      execute: (args) => `Received: ${JSON.stringify(args)}`,
    }),
    defineTool({
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call; the result arrives after the client reconnects',
      execute: async (_args, { closeResponseStream }) => {
        await sleep(50);
        closeResponseStream();
        await sleep(200);
        return 'Reconnection test completed';
      },
    }),
  ];

  return createMcpServer({
    name: 'switchboard-conformance',
    version: '1.0.0',
    tools,
    resources: [
      {
        uri: 'test://static-text',
        name: 'static-text',
        description: 'A static text resource',
        mimeType: 'text/plain',
        read: () => 'This is the content of the static text resource.',
      },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static binary resource (PNG)',
        mimeType: 'image/png',
        read: () => Buffer.from(pngBase64, 'base64'),
      },
      {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A resource clients can subscribe to',
        mimeType: 'text/plain',
        read: () => 'Watched resource content',
      },
    ],
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for an id',
        mimeType: 'application/json',
        read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
      },
    ],
    prompts: [
      {
        name: 'test_simple_prompt',
        description: 'A simple prompt without arguments',
        get: () => 'This is a simple prompt for testing.',
      },
      {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
        get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
        complete: {
          arg1: (value) => ['paris', 'park', 'party', 'test'].filter((word) => word.startsWith(value)),
        },
      },
      {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt embedding a resource',
        arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
        get: ({ resourceUri }) => ({
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: resourceUri ?? 'test://example-resource',
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        }),
      },
      {
        name: 'test_prompt_with_image',
        description: 'A prompt with an image',
        get: () => ({
          messages: [
            { role: 'user', content: { type: 'image', data: pngBase64, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        }),
      },
    ],
  });
}
