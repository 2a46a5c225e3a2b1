/**
 * Example — MCP tools in a Mastra agent: `toMastraTools` turns the tools of two servers into Mastra
 * tools for `new Agent({ tools })`. Mastra's own loop runs them; an image result reaches the model
 * as a media part (`toModelOutput`), and a tool whose approval policy asks uses Mastra's
 * `requireApproval`: the run suspends until `approveToolCallGenerate` (or `declineToolCallGenerate`).
 *
 * Offline it runs a scripted model. With OPENAI_API_KEY set it uses Mastra's model router
 * (`openai/gpt-4o-mini`, or OPENAI_MODEL) instead.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { connectMcp } from '@switchboard/client';
import { toMastraTools } from '@switchboard/client/mastra';
import { createScriptedLanguageModel } from './agent/scripted-language-model.js';
import { officialServer } from './official-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-mastra-'));
const memoryFile = join(folder, 'memory.jsonl');

// Memory writes need a person's yes (approval 'always'); everything's tools run freely.
const mcp = await connectMcp({
  everything: { ...officialServer('everything', ['stdio']), approval: 'never' },
  memory: { ...officialServer('memory'), env: { MEMORY_FILE_PATH: memoryFile }, approval: 'always' },
});

const scripted = createScriptedLanguageModel([
  () => ({ tool: 'mcp__everything__get-sum', args: { a: 17, b: 25 } }),
  () => ({ tool: 'mcp__everything__get-tiny-image', args: {} }),
  (prompt) => {
    const lastResult = prompt
      .filter((message) => message.role === 'tool')
      .at(-1)
      ?.content.at(-1);
    const output = lastResult?.type === 'tool-result' ? lastResult.output : undefined;
    const kinds =
      output?.type === 'content' ? output.value.map((part) => part.type).join(', ') : output?.type;
    console.log(`  the model received the image result as: ${kinds}`);
    return {
      tool: 'mcp__memory__create_entities',
      args: { entities: [{ name: 'sum', entityType: 'fact', observations: ['17 + 25 = 42'] }] },
    };
  },
  () => ({ text: 'Done. 17 + 25 = 42, and I stored it.' }),
]);

try {
  const tools = toMastraTools(mcp);
  console.log(
    `Mastra tools: ${Object.keys(tools).length} (e.g. ${Object.keys(tools).slice(0, 3).join(', ')})`,
  );
  const model = process.env.OPENAI_API_KEY ? `openai/${process.env.OPENAI_MODEL ?? 'gpt-4o-mini'}` : scripted;
  // Storage keeps the suspended run, so it can be resumed after the approval.
  const mastra = new Mastra({
    agents: {
      assistant: new Agent({
        id: 'assistant',
        name: 'assistant',
        instructions: 'Use the tools.',
        model,
        tools,
      }),
    },
    storage: new InMemoryStore(),
    logger: false,
  });
  const agent = mastra.getAgent('assistant');

  const paused = await agent.generate('Add 17 and 25, show the tiny image, remember the sum.', {
    maxSteps: 8,
  });
  for (const { payload } of paused.toolResults) {
    const result = payload.result as { text: string; media: unknown[] };
    console.log(
      `  ${payload.toolName} → ${result.text.replace(/\s+/g, ' ').slice(0, 40)}${result.media.length ? ` (+${result.media.length} media)` : ''}`,
    );
  }
  const pending = paused.suspendPayload as { toolName?: string; toolCallId?: string } | undefined;
  console.log(`run suspended (${paused.finishReason}): ${pending?.toolName} needs approval`);

  // The application asks a person here; this example says yes.
  const resumed = await agent.approveToolCallGenerate({
    runId: paused.runId as string,
    ...(pending?.toolCallId ? { toolCallId: pending.toolCallId } : {}),
  });
  console.log(`memory file holds the entity: ${(await readFile(memoryFile, 'utf8')).includes('"sum"')}`);
  console.log(`answer: ${resumed.text}`);
} finally {
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
