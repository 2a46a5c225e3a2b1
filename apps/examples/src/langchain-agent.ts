/**
 * Example — MCP tools in a LangGraph agent: `toLangChainTools` turns the tools of three servers into
 * LangChain tools for LangGraph's own `createReactAgent`. Results come back as ToolMessages (an image
 * as a standard image block), and a tool whose approval policy asks pauses the graph with
 * `interrupt()` until the application resumes it with `new Command({ resume: true })`.
 *
 * Offline (no key needed): the chat model is scripted, LangGraph's loop and the servers are real.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { connectMcp } from '@switchboard/client';
import { type LangChainApprovalRequest, toLangChainTools } from '@switchboard/client/langchain';
import { ScriptedChatModel } from './agent/scripted-chat-model.js';
import { officialServer } from './official-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-langchain-'));
const memoryFile = join(folder, 'memory.jsonl');

// Memory writes need a person's yes (approval 'always'); the other servers' tools run freely.
const mcp = await connectMcp({
  everything: { ...officialServer('everything', ['stdio']), approval: 'never' },
  memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: memoryFile }, approval: 'always' },
});

const call = (name: string, args: Record<string, unknown>) =>
  new AIMessage({ content: '', tool_calls: [{ id: `call_${name}`, name, args, type: 'tool_call' }] });
const lastToolText = (messages: BaseMessage[]) =>
  String(messages.filter(ToolMessage.isInstance).at(-1)?.content ?? '');

const model = new ScriptedChatModel([
  () => call('mcp__everything__get-sum', { a: 17, b: 25 }),
  () => call('mcp__everything__get-tiny-image', {}),
  (messages) => {
    const image = messages.filter(ToolMessage.isInstance).at(-1)?.content;
    const blocks = Array.isArray(image) ? image.map((block) => block.type).join(', ') : 'text';
    console.log(`  the model received the image result as blocks: ${blocks}`);
    return call('mcp__memory__create_entities', {
      entities: [{ name: 'sum', entityType: 'fact', observations: ['17 + 25 = 42'] }],
    });
  },
  (messages) =>
    new AIMessage(`Done. 17 + 25 = 42, and I stored it (${lastToolText(messages).length} bytes back).`),
]);

try {
  const tools = toLangChainTools(mcp);
  console.log(
    `LangChain tools: ${tools.length} (e.g. ${tools
      .slice(0, 3)
      .map((tool) => tool.name)
      .join(', ')})`,
  );
  const agent = createReactAgent({ llm: model, tools, checkpointer: new MemorySaver() });
  const thread = { configurable: { thread_id: 'example' } };

  const paused = await agent.invoke(
    { messages: [new HumanMessage('Add 17 and 25, show the tiny image, remember the sum.')] },
    thread,
  );
  for (const message of paused.messages.filter(ToolMessage.isInstance)) {
    const content =
      typeof message.content === 'string' ? message.content : `${message.content.length} blocks`;
    console.log(`  ${message.name} → ${message.status}: ${content.slice(0, 60)}`);
  }
  const request = (paused as { __interrupt__?: Array<{ value: LangChainApprovalRequest }> })
    .__interrupt__?.[0]?.value;
  console.log(`graph paused: ${request?.toolName} on ${request?.server} needs approval`);

  // The application asks a person here; this example says yes.
  const resumed = await agent.invoke(new Command({ resume: true }), thread);
  console.log(`resumed with approval → ${resumed.messages.filter(ToolMessage.isInstance).at(-1)?.status}`);
  console.log(`memory file holds the entity: ${(await readFile(memoryFile, 'utf8')).includes('"sum"')}`);
  console.log(`answer: ${resumed.messages.at(-1)?.text}`);
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
