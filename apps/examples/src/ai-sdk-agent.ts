/**
 * Example — the Vercel AI SDK: MCP servers' tools in the AI SDK's own `generateText` loop through
 * `@switchboard/client/ai-sdk`. One turn sums two numbers and looks at an image (the image
 * reaches the model as an image part); a second turn asks to delete a memory, which the AI SDK's
 * approval path stops until a person says yes; a third turn runs with per-step tool selection (a
 * real `createToolSelector` of @switchboard/tool-selection through `createAISDKPrepareStep`), so the
 * model is offered only the tools that fit the request. Offline with a scripted model; with
 * AI_GATEWAY_API_KEY set it runs on a real model through the AI SDK's gateway (AI_MODEL, default
 * openai/gpt-4o-mini) and no new package.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcp } from '@switchboard/client';
import { createAISDKPrepareStep, toAISDKTools } from '@switchboard/client/ai-sdk';
import { createDiscoverToolsTool, createToolSelector } from '@switchboard/tool-selection';
import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type ToolApprovalResponse,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { officialServer } from './official-servers.js';

type Reply = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
const usage: Reply['usage'] = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
let callCount = 0;
const callTools = (...calls: Array<[string, unknown]>): Reply => ({
  content: calls.map(([toolName, input]) => ({
    type: 'tool-call',
    toolCallId: `call-${++callCount}`,
    toolName,
    input: JSON.stringify(input),
  })),
  finishReason: { unified: 'tool-calls', raw: undefined },
  usage,
  warnings: [],
});
const say = (text: string): Reply => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: undefined },
  usage,
  warnings: [],
});

/** An offline model that answers as a real one would, reading the tool results it was sent. */
/** The tool names the model was offered on each step (the scripted model records them). */
const offered: string[][] = [];

function scriptedModel(): LanguageModel {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt, tools }) => {
      offered.push((tools ?? []).map((tool) => tool.name));
      const results = prompt.flatMap((message) =>
        message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
      );
      const user = prompt.findLast((message) => message.role === 'user');
      const asked = user?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
      if (asked.includes('Forget')) {
        const deleted = results.find((part) => part.toolName === 'mcp__memory__delete_entities');
        if (deleted === undefined)
          return callTools(['mcp__memory__delete_entities', { entityNames: ['Switchboard'] }]);
        return say(
          deleted.output.type === 'execution-denied' ? 'I kept it: deleting was not approved.' : 'Forgotten.',
        );
      }
      const sum = results.find((part) => part.toolName === 'mcp__everything__get-sum');
      if (asked.startsWith('Add')) {
        if (sum === undefined) return callTools(['mcp__everything__get-sum', { a: 40, b: 2 }]);
        return say(
          `40 + 2 = ${sum.output.type === 'text' ? /(-?\d+)\D*$/.exec(sum.output.value)?.[1] : '?'}.`,
        );
      }
      const image = results.find((part) => part.toolName === 'mcp__everything__get-tiny-image');
      if (sum === undefined || image === undefined) {
        return callTools(
          ['mcp__everything__get-sum', { a: 17, b: 25 }],
          ['mcp__everything__get-tiny-image', {}],
        );
      }
      const total = sum.output.type === 'text' ? /(-?\d+)\D*$/.exec(sum.output.value)?.[1] : '?';
      const sawImage =
        image.output.type === 'content' && image.output.value.some((part) => part.type === 'image-data');
      return say(`17 + 25 = ${total}. ${sawImage ? 'I can see the tiny image.' : 'No image came back.'}`);
    },
  });
}

const gatewayKey = process.env.AI_GATEWAY_API_KEY;
const model: LanguageModel = gatewayKey ? (process.env.AI_MODEL ?? 'openai/gpt-4o-mini') : scriptedModel();
console.log(`model: ${gatewayKey ? `${String(model)} (AI SDK gateway)` : 'scripted offline model'}`);

const folder = await mkdtemp(join(tmpdir(), 'switchboard-ai-sdk-'));
// No `approve` callback: tools whose policy says ask go through the AI SDK's approval path instead.
const mcp = await connectMcp({
  everything: officialServer('everything', ['stdio']),
  memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } },
});
try {
  await mcp.callTool('mcp__memory__create_entities', {
    entities: [
      { name: 'Switchboard', entityType: 'project', observations: ['connects agents to MCP servers'] },
    ],
  });
  // Made per request: a connection's tools can change while it runs.
  const tools = toAISDKTools(mcp);
  console.log(`offering ${Object.keys(tools).length} tools to the AI SDK`);

  const first = await generateText({
    model,
    tools,
    stopWhen: stepCountIs(4),
    prompt: 'What is 17 plus 25? Also fetch the tiny image and tell me whether you can see it.',
  });
  for (const step of first.steps) {
    for (const result of step.toolResults) {
      const parts = (result.output as { parts: Array<{ type: string; mimeType?: string }> }).parts;
      console.log(
        `  tool ${result.toolName} → ${parts.map((part) => part.mimeType ?? part.type).join(' + ')}`,
      );
    }
  }
  console.log(`answer: ${first.text}`);

  // Turn two: a destructive tool. The loop stops with a tool-approval-request; we say yes.
  const messages: ModelMessage[] = [{ role: 'user', content: 'Forget the Switchboard entity.' }];
  const asked = await generateText({ model, tools, stopWhen: stepCountIs(4), messages });
  messages.push(...asked.response.messages);
  const answers: ToolApprovalResponse[] = [];
  for (const part of asked.content) {
    if (part.type !== 'tool-approval-request') continue;
    console.log(
      `approval asked for ${part.toolCall.toolName} ${JSON.stringify(part.toolCall.input)} → approved`,
    );
    answers.push({ type: 'tool-approval-response', approvalId: part.approvalId, approved: true });
  }
  if (answers.length > 0) messages.push({ role: 'tool', content: answers });
  const done =
    answers.length > 0 ? await generateText({ model, tools, stopWhen: stepCountIs(4), messages }) : asked;
  console.log(`answer: ${done.text}`);
  const graph = JSON.stringify(await mcp.callTool('mcp__memory__read_graph', {}));
  console.log(`memory still holds Switchboard: ${graph.includes('Switchboard')}`);

  // Turn three: per-step selection. A real selector follows the connection's registry (BM25, and
  // embeddings when a model is at hand); each step offers only its picks and discover_tools.
  const selector = createToolSelector({ registry: mcp.registry });
  mcp.registry.register(createDiscoverToolsTool(selector));
  await selector.ready();
  const options = { select: { selector, k: 3 } };
  const before = offered.length;
  const selected = await generateText({
    model,
    // The registry, not the connection: it also holds discover_tools, a local tool.
    tools: toAISDKTools(mcp.registry, options),
    prepareStep: createAISDKPrepareStep(mcp.registry, options),
    stopWhen: stepCountIs(4),
    prompt: 'Add the numbers 40 and 2 (their sum).',
  });
  const firstStep = offered[before] ?? [];
  if (!gatewayKey) {
    console.log(
      `with selection, step 1 offered ${firstStep.length} of ${mcp.registry.list().length} tools: ${firstStep.join(', ')}`,
    );
  }
  console.log(`answer: ${selected.text}`);
  await selector.close();
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
