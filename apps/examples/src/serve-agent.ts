/**
 * Example 5 — serve an agent and its tools over Streamable HTTP, and use them from the client.
 * The server offers a small tool set plus `ask_assistant`, an agent (the loop of example 4 over the
 * same tools) exposed as one tool taking `{ message }`. Any MCP client can call either.
 */
import { connectMcp } from '@switchboard/client';
import type { WrappedToolResult } from '@switchboard/core';
import { type AgentFunction, defineTool, serve, serveAgent } from '@switchboard/server';
import { createToolSelector } from '@switchboard/tool-selection';
import { runAgent } from './agent/run-agent.js';
import { createScriptedModel } from './agent/scripted-model.js';

// Fixed rates keep the example deterministic.
const eurosPer: Record<string, number> = { EUR: 1, USD: 0.92, NOK: 0.085, GBP: 1.17 };

const convertCurrency = defineTool({
  name: 'convert_currency',
  description: 'Convert an amount of money from one currency to another (EUR, USD, NOK, GBP).',
  input: {
    type: 'object',
    properties: {
      amount: { type: 'number', description: 'Amount to convert' },
      from: { type: 'string', enum: Object.keys(eurosPer) },
      to: { type: 'string', enum: Object.keys(eurosPer) },
    },
    required: ['amount', 'from', 'to'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  execute: ({ amount, from, to }: { amount: number; from: string; to: string }) =>
    `${amount} ${from} = ${((amount * (eurosPer[from] ?? Number.NaN)) / (eurosPer[to] ?? Number.NaN)).toFixed(2)} ${to}`,
});

const countWords = defineTool({
  name: 'count_words',
  description: 'Count the words in a text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  annotations: { readOnlyHint: true, openWorldHint: false },
  execute: ({ text }: { text: string }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
});

// The agent: the loop of example 4 with the offline scripted model, over the tools served beside it.
const model = createScriptedModel([
  {
    match: /(\d+(?:\.\d+)?) ([A-Z]{3}) in ([A-Z]{3})/,
    steps: [
      {
        tool: 'convert_currency',
        arguments: (request) => {
          const [, amount, from, to] = /(\d+(?:\.\d+)?) ([A-Z]{3}) in ([A-Z]{3})/.exec(request) ?? [];
          return { amount: Number(amount), from, to };
        },
      },
    ],
    answer: ([result = '{}']) => `That is ${JSON.parse(result).message.split(' = ')[1]}.`,
  },
]);
const agent: AgentFunction = async (message, { signal }) => {
  const run = await runAgent(message, {
    model,
    registry: server.registry,
    selector,
    k: 3,
    signal,
    allowTool: (tool) => tool.name !== 'ask_assistant', // not itself
    onEvent: (event) => {
      if (event.type === 'tool-call')
        console.log(`    (inside the agent: ${event.call.name} ${JSON.stringify(event.call.arguments)})`);
    },
  });
  return run.text;
};

// One MCP server: the agent as a tool taking { message }, and the tools exposed directly too.
const server = serveAgent({
  name: 'assistant',
  toolName: 'ask_assistant',
  description: 'Ask the assistant a question in plain words; it uses the currency and text tools as needed.',
  agent,
  tools: [convertCurrency, countWords],
});
const selector = createToolSelector({ registry: server.registry });

const http = await serve(server, { transport: { type: 'http', port: 0 } });
console.log(`serving "${server.name}" on ${http.url}`);

// The other side: any MCP client. Here, @switchboard/client over Streamable HTTP. The agent tool is
// not annotated read-only (an agent may act), so this client allows it by name in its approval config.
const mcp = await connectMcp({
  assistant: { url: http.url as string, approval: { allow: ['ask_assistant'] } },
});
try {
  console.log(`client sees: ${Object.keys(mcp.tools).join(', ')}`);
  const show = async (name: string, args: Record<string, unknown>): Promise<void> => {
    const result = (await mcp.callTool(name, args)) as WrappedToolResult;
    console.log(
      `  ${name} ${JSON.stringify(args)}\n  → ${result.status === 'success' ? result.message : result.error}`,
    );
  };
  console.log('\nthe tools, called directly:');
  await show('mcp__assistant__convert_currency', { amount: 250, from: 'USD', to: 'EUR' });
  await show('mcp__assistant__count_words', { text: 'serve tools, an agent, or a gateway' });
  console.log('\nthe agent, called as a tool:');
  await show('mcp__assistant__ask_assistant', { message: 'How much is 120 EUR in NOK?' });
  await show('mcp__assistant__ask_assistant', { message: 'Write me a poem.' });
  console.log(
    `\ntransport: ${mcp.status().assistant?.transport}; calls: ${mcp.metrics().servers.assistant?.calls}`,
  );
} finally {
  await mcp.close();
  await selector.close();
  await http.close();
  await server.close();
}
