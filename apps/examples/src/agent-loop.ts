/**
 * Example 4 — a custom agent loop built from the packages: tools from four servers (500+),
 * selection per request, a model behind a small adapter interface, approvals from annotations,
 * and `discover_tools` when the model needs a tool that was not selected.
 *
 * Offline it runs a deterministic scripted model. With OPENAI_API_KEY (or ANTHROPIC_API_KEY) set it
 * talks to that API instead (OPENAI_BASE_URL / OPENAI_MODEL, ANTHROPIC_BASE_URL / ANTHROPIC_MODEL).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApproveCallback, connectMcp } from '@switchboard/client';
import { createDiscoverToolsTool, createToolSelector } from '@switchboard/tool-selection';
import { createAnthropicModel } from './agent/anthropic-model.js';
import type { ModelAdapter } from './agent/model-adapter.js';
import { createOpenAIModel } from './agent/openai-model.js';
import { type AgentEvent, runAgent } from './agent/run-agent.js';
import { createScriptedModel, type Script } from './agent/scripted-model.js';
import { largeToolSet } from './catalogue-servers.js';

const folder = await mkdtemp(join(tmpdir(), 'switchboard-agent-'));

const requests = [
  'Add the numbers 17 and 25.',
  'Book a flight from OSL to CDG on 2026-12-04 and let the team know.',
  'Save my itinerary to trip.md, then cancel my old flight booking FB-1001.',
];

// What the offline model does for each request. Request 2 does not say how to tell the team, so
// no chat tool is selected for it: the model has to find one with discover_tools.
const scripts: Script[] = [
  {
    match: /17 and 25/,
    steps: [{ tool: 'get-sum', arguments: { a: 17, b: 25 }, discover: 'add two numbers' }],
    answer: ([sum = '{}']) => `${JSON.parse(sum).message} (computed by the get-sum tool)`,
  },
  {
    match: /Book a flight/,
    steps: [
      {
        tool: 'travel_create_flight_booking',
        arguments: { origin: 'OSL', destination: 'CDG', date: '2026-12-04', passengers: 1 },
      },
      {
        tool: 'slack_create_channel_message',
        arguments: { channel: '#travel', text: 'Booked OSL → CDG on 2026-12-04.' },
        discover: 'post a message to a chat channel',
      },
    ],
    answer: ([booking = '{}', post = '{}']) =>
      `Booked flight ${JSON.parse(booking).data?.id} and told #travel (message ${JSON.parse(post).data?.id}).`,
  },
  {
    match: /itinerary/,
    steps: [
      {
        tool: 'write_file',
        arguments: { path: join(folder, 'trip.md'), content: '# Trip\nOSL → CDG, 2026-12-04\n' },
        discover: 'write a text file',
      },
      { tool: 'travel_delete_flight_booking', arguments: { flight_booking_id: 'FB-1001' } },
    ],
  },
];

function chooseModel(): ModelAdapter {
  const { env } = process;
  if (env.OPENAI_API_KEY) {
    return createOpenAIModel({
      apiKey: env.OPENAI_API_KEY,
      ...(env.OPENAI_MODEL ? { model: env.OPENAI_MODEL } : {}),
      ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
    });
  }
  if (env.ANTHROPIC_API_KEY) {
    return createAnthropicModel({
      apiKey: env.ANTHROPIC_API_KEY,
      ...(env.ANTHROPIC_MODEL ? { model: env.ANTHROPIC_MODEL } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseUrl: env.ANTHROPIC_BASE_URL } : {}),
    });
  }
  return createScriptedModel(scripts);
}

// The client asks this only for tools whose annotations do not mark them safe (read-only or
// non-destructive). Our rule: file writes inside the work folder yes, anything else no.
const approve: ApproveCallback = ({ name, originalName, args, reason }) => {
  const inFolder = typeof args.path === 'string' && args.path.startsWith(folder);
  const granted = originalName === 'write_file' && inFolder;
  console.log(`    approval: ${granted ? 'APPROVED' : 'DENIED'} ${name} — ${reason}`);
  return granted;
};

const show = (event: AgentEvent): void => {
  const short = (text: string): string => text.replaceAll(folder, '<tmp>').replace(/\s+/g, ' ').slice(0, 110);
  if (event.type === 'selected') console.log(`  selected: ${event.tools.join(', ')}`);
  if (event.type === 'tool-call')
    console.log(`  → ${event.call.name} ${short(JSON.stringify(event.call.arguments))}`);
  if (event.type === 'tool-result') {
    const { result } = event;
    const text = result.status === 'success' ? result.message : result.error;
    if (event.call.name !== 'discover_tools') console.log(`    ${result.status}: ${short(text)}`);
  }
  if (event.type === 'discovered') console.log(`    discovered: ${event.tools.join(', ')}`);
  if (event.type === 'answer') console.log(`  answer: ${event.text.replaceAll(folder, '<tmp>')}`);
};

const mcp = await connectMcp(largeToolSet(folder), { approve });
const selector = createToolSelector({ registry: mcp.registry });
mcp.registry.register(createDiscoverToolsTool(selector));
try {
  await selector.ready();
  const model = chooseModel();
  console.log(`model: ${model.name}; ${mcp.registry.list().length} tools available, 5 offered per request`);
  for (const request of requests) {
    console.log(`\nuser: ${request}`);
    await runAgent(request, { model, registry: mcp.registry, selector, k: 5, onEvent: show });
  }
  const saved = await readFile(join(folder, 'trip.md'), 'utf8').catch(() => undefined);
  console.log(`\ntrip.md on disk: ${saved === undefined ? 'not written' : JSON.stringify(saved)}`);
} catch (error) {
  console.error(`agent-loop failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await selector.close();
  await mcp.close();
  await rm(folder, { recursive: true, force: true });
}
