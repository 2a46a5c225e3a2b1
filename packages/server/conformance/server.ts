/**
 * The conformance fixture: a server built only from @switchboard/server's public API that
 * implements what the official `@modelcontextprotocol/conformance` server scenarios ask for, in
 * both protocol eras (2025 sessions or stateless, and 2026-07-28), with the tasks and skills
 * extensions. `createConformanceServer()` is used by `run.ts`.
 */
import { fileURLToPath } from 'node:url';
import {
  acceptedContent,
  type InputRequests,
  inputRequired,
  ProtocolError,
} from '@modelcontextprotocol/server';
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

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

const nameQuestion = (message = 'What is your name?') =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });

/** The 2025-era tools the original scenarios call (served in both eras). */
function contentTools() {
  return [
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
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema 2020-12 keyword.
        then: { required: ['phone'] },
        else: { required: ['email'] },
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
}

/** Tools that ask the client for input the 2025 way (`sample`, `elicit` on the context; both eras). */
function clientInputTools() {
  return [
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
  ];
}

/**
 * The 2026-07-28 multi-round tools (SEP-2322), written SDK style: return `inputRequired(...)`
 * until the retry brings the answers (`context.inputResponses`), keep state in
 * `context.requestState` (sealed by the server). On a 2025 session the server asks the client
 * itself and calls the tool again with the answers.
 */
function multiRoundTools() {
  return [
    defineTool({
      name: 'test_input_required_result_elicitation',
      description: 'MRTR: asks for the caller name with an in-band elicitation',
      execute: (_args, { inputResponses }) => {
        const name = acceptedContent<{ name: string }>(inputResponses, 'user_name')?.name;
        if (typeof name !== 'string') return inputRequired({ inputRequests: { user_name: nameQuestion() } });
        return `Hello, ${name}!`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_sampling',
      description: 'MRTR: asks for an LLM completion with an in-band sampling request',
      execute: (_args, { inputResponses }) => {
        const answer = inputResponses?.capital_question as { content?: { text?: string } } | undefined;
        if (answer === undefined) {
          return inputRequired({
            inputRequests: {
              capital_question: inputRequired.createMessage({
                messages: [
                  { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
                ],
                maxTokens: 100,
              }),
            },
          });
        }
        return `Sampling response: ${answer.content?.text ?? JSON.stringify(answer)}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_list_roots',
      description: 'MRTR: asks for the client roots with an in-band roots/list request',
      execute: (_args, { inputResponses }) => {
        const roots = (inputResponses?.client_roots as { roots?: Array<{ uri?: string }> } | undefined)
          ?.roots;
        if (!Array.isArray(roots))
          return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
        return `Client exposed ${roots.length} root(s): ${roots.map((root) => root.uri).join(', ')}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_request_state',
      description: 'MRTR: round-trips integrity-protected requestState with an elicitation',
      execute: (_args, { inputResponses, requestState }) => {
        const confirmation = acceptedContent<{ ok: boolean }>(inputResponses, 'confirm');
        if (confirmation === undefined) {
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: 'Please confirm',
                requestedSchema: {
                  type: 'object',
                  properties: { ok: { type: 'boolean' } },
                  required: ['ok'],
                },
              }),
            },
            requestState: JSON.stringify({ tool: 'request_state' }),
          });
        }
        if (requestState === undefined)
          return inputRequired({ inputRequests: { confirm: nameQuestion('Please confirm') } });
        return 'state-ok: requestState verified and confirmation received';
      },
    }),
    defineTool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'MRTR: asks for elicitation, sampling and roots input in one round',
      execute: (_args, { inputResponses }) => {
        const name = acceptedContent<{ name: string }>(inputResponses, 'user_name')?.name;
        const greeting = (inputResponses?.greeting as { content?: { text?: string } } | undefined)?.content
          ?.text;
        const roots = (inputResponses?.client_roots as { roots?: unknown[] } | undefined)?.roots;
        if (typeof name !== 'string' || typeof greeting !== 'string' || !Array.isArray(roots)) {
          return inputRequired({
            inputRequests: {
              user_name: nameQuestion(),
              greeting: inputRequired.createMessage({
                messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
                maxTokens: 50,
              }),
              client_roots: inputRequired.listRoots(),
            },
            requestState: JSON.stringify({ tool: 'multiple_inputs' }),
          });
        }
        return `${greeting} ${name} — ${roots.length} root(s) visible`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_multi_round',
      description: 'MRTR: two elicitation rounds with evolving requestState',
      execute: (_args, { inputResponses, requestState }) => {
        const state =
          requestState === undefined ? {} : (JSON.parse(requestState) as { round?: number; name?: string });
        const round = state.round ?? 0;
        if (round === 0) {
          return inputRequired({
            inputRequests: { step1: nameQuestion('Step 1: What is your name?') },
            requestState: JSON.stringify({ round: 1 }),
          });
        }
        if (round === 1) {
          const name = acceptedContent<{ name: string }>(inputResponses, 'step1')?.name ?? 'unknown';
          return inputRequired({
            inputRequests: {
              step2: inputRequired.elicit({
                message: 'Step 2: What is your favorite color?',
                requestedSchema: {
                  type: 'object',
                  properties: { color: { type: 'string' } },
                  required: ['color'],
                },
              }),
            },
            requestState: JSON.stringify({ round: 2, name }),
          });
        }
        const color = acceptedContent<{ color: string }>(inputResponses, 'step2')?.color ?? 'unknown';
        return `Multi-round complete: ${state.name ?? 'unknown'} likes ${color}`;
      },
    }),
    defineTool({
      name: 'test_input_required_result_tampered_state',
      description: 'MRTR: rejects retries whose requestState fails integrity verification',
      execute: (_args, { inputResponses, requestState }) => {
        if (requestState !== undefined && acceptedContent(inputResponses, 'confirm') !== undefined) {
          return 'integrity-ok: requestState verified';
        }
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: 'Please confirm',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            }),
          },
          requestState: JSON.stringify({ tool: 'tampered_state' }),
        });
      },
    }),
    defineTool({
      name: 'test_input_required_result_capabilities',
      description: 'MRTR: only requests input kinds the declared client capabilities cover',
      execute: (_args, { inputResponses, clientCapabilities }) => {
        if (inputResponses !== undefined) return 'Capability-aware input requests fulfilled';
        const inputRequests: InputRequests = {};
        if (clientCapabilities.elicitation !== undefined) inputRequests.user_name = nameQuestion();
        if (clientCapabilities.sampling !== undefined) {
          inputRequests.greeting = inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a short greeting' } }],
            maxTokens: 50,
          });
        }
        if (clientCapabilities.roots !== undefined) inputRequests.client_roots = inputRequired.listRoots();
        if (Object.keys(inputRequests).length === 0)
          return 'No declared client capability supports an in-band input request';
        return inputRequired({ inputRequests });
      },
    }),
    defineTool({
      name: 'test_missing_capability',
      description: 'Needs the sampling client capability (the -32021 rejection)',
      execute: (_args, { inputResponses }) => {
        if (inputResponses?.llm_answer === undefined) {
          return inputRequired({
            inputRequests: {
              llm_answer: inputRequired.createMessage({
                messages: [
                  { role: 'user', content: { type: 'text', text: 'Reply with the single word: pong' } },
                ],
                maxTokens: 16,
              }),
            },
          });
        }
        return 'sampling round-trip complete';
      },
    }),
    defineTool({
      name: 'test_streaming_elicitation',
      description: 'A plain call whose response stream carries results only',
      execute: () => 'stream observed: result frames only, no top-level requests',
    }),
    defineTool({
      name: 'test_logging_tool',
      description: 'Logs through the context (delivered only when the request set a logLevel)',
      execute: async (_args, { log }) => {
        await log('info', 'test_logging_tool ran');
        return 'logged through the request-scoped, logLevel-gated channel';
      },
    }),
    defineTool({
      name: 'test_x_mcp_header',
      description: 'Mirrors an argument into the Mcp-Param-Region header (SEP-2243)',
      input: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' },
          level: { type: 'integer', description: 'not mirrored' },
        },
      },
      execute: (args) => `region=${String(args.region ?? '<none>')}`,
    }),
  ];
}

/** Long-running tools of the tasks extension (SEP-2663). */
function taskTools() {
  return [
    defineTool({
      name: 'greet',
      description: 'Greets (a plain call, never a task)',
      input: z.object({ name: z.string().default('World') }),
      execute: ({ name }) => `Hello, ${name}!`,
    }),
    defineTool({
      name: 'slow_compute',
      description: 'Sleeps `seconds`, then answers (a task for clients with the tasks extension)',
      input: z.object({ seconds: z.number().min(0).default(1), label: z.string().optional() }),
      task: { mode: 'optional', pollIntervalMs: 100 },
      execute: async ({ seconds, label }, { signal }) => {
        await sleep(seconds * 1000, signal);
        return `computed ${label ?? 'result'} after ${seconds}s`;
      },
    }),
    defineTool({
      name: 'failing_job',
      description: 'Fails after a moment (tool error); needs the tasks extension',
      task: { mode: 'required', pollIntervalMs: 100 },
      execute: async () => {
        await sleep(200);
        throw new Error('failing_job failed on purpose');
      },
    }),
    defineTool({
      name: 'protocol_error_job',
      description: 'Fails with a protocol error (a failed task)',
      task: { mode: 'optional', pollIntervalMs: 100 },
      execute: async () => {
        await sleep(100);
        throw new ProtocolError(-32603, 'protocol_error_job hit an internal error on purpose');
      },
    }),
    defineTool({
      name: 'confirm_delete',
      description: 'Asks for confirmation inside its task, then deletes',
      input: z.object({ filename: z.string().default('file.txt') }),
      task: { mode: 'optional', pollIntervalMs: 100 },
      execute: async ({ filename }, { elicit }) => {
        const answer = await elicit({
          message: `Delete ${filename}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        });
        return `${answer.action === 'accept' ? 'deleted' : 'kept'} ${filename}`;
      },
    }),
    defineTool({
      name: 'multi_input',
      description: 'Asks two questions at once inside its task',
      task: { mode: 'optional', pollIntervalMs: 100 },
      execute: async (_args, { elicit }) => {
        const question = (message: string) =>
          elicit({
            message,
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
            },
          });
        const [first, second] = await Promise.all([question('First?'), question('Second?')]);
        return `answers: ${JSON.stringify([first.content, second.content])}`;
      },
    }),
    defineTool({
      name: 'test_tool_with_task',
      description: 'Asks for a name in rounds, then goes on as a task',
      task: { mode: 'required', start: 'on-request', pollIntervalMs: 100 },
      execute: async (_args, { inputResponses, continueAsTask }) => {
        const name = acceptedContent<{ name: string }>(inputResponses, 'user_name')?.name;
        if (typeof name !== 'string') return inputRequired({ inputRequests: { user_name: nameQuestion() } });
        await continueAsTask();
        await sleep(100);
        return `Hello, ${name}, from a task!`;
      },
    }),
  ];
}

/** Builds the conformance server. */
export function createConformanceServer(): McpServer {
  const server = createMcpServer({
    name: 'switchboard-conformance',
    version: '1.0.0',
    tools: [...contentTools(), ...clientInputTools(), ...multiRoundTools(), ...taskTools()],
    skills: { directory: fileURLToPath(new URL('./skills', import.meta.url)) },
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
      {
        name: 'test_input_required_result_prompt',
        description: 'MRTR: a prompt that asks for context before rendering',
        get: (_args, { inputResponses }) => {
          const context = acceptedContent<{ context: string }>(inputResponses, 'user_context')?.context;
          if (typeof context !== 'string') {
            return inputRequired({
              inputRequests: {
                user_context: inputRequired.elicit({
                  message: 'What context should the prompt use?',
                  requestedSchema: {
                    type: 'object',
                    properties: { context: { type: 'string' } },
                    required: ['context'],
                  },
                }),
              },
            });
          }
          return `Use the following context: ${context}`;
        },
      },
    ],
  });
  // Diagnostic triggers of the listen scenario: they publish change events on the server's bus.
  server.addTool(
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Publishes a tools/list_changed event',
      execute: () => {
        server.bus.publish({ kind: 'tools_list_changed' });
        return 'tools_list_changed published';
      },
    }),
  );
  server.addTool(
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Publishes a prompts/list_changed event',
      execute: () => {
        server.bus.publish({ kind: 'prompts_list_changed' });
        return 'prompts_list_changed published';
      },
    }),
  );
  return server;
}
