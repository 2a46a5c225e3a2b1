/**
 * The guided tour (`npm run demo` at the repository root): runs each example in turn as its own
 * process, with a header saying what it shows. Offline, no API keys. Exits non-zero if a step fails.
 * Example names as arguments run only those: `pnpm --filter @switchboard/examples demo agent-loop`.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

interface Step {
  example: string;
  title: string;
  shows: string;
}

const steps: Step[] = [
  {
    example: 'single-server',
    title: 'One server',
    shows:
      'connectMcp starts server-filesystem on a temp folder. Its tools are namespaced (mcp__<server>__<tool>),\n' +
      'classified read/write, validated before each call, and writes go through an approval callback.',
  },
  {
    example: 'many-servers',
    title: 'Many servers from an mcp.json',
    shows:
      'loadConfig reads a Claude-Desktop-style mcp.json (with variable expansion, prefixes, per-server approval);\n' +
      'connectMcp starts every server in parallel, skips the broken one, and reports status() and metrics().',
  },
  {
    example: 'tool-selection',
    title: 'Picking 5 tools out of 500+',
    shows:
      'Three official servers plus a 500-tool catalogue server. createToolSelector ranks the tools for each\n' +
      'request (BM25, plus embeddings when a model is available) and counts the schema tokens not sent.',
  },
  {
    example: 'agent-loop',
    title: 'A custom agent loop',
    shows:
      'A ModelAdapter (here a scripted offline model; OpenAI/Anthropic adapters when keys are set) gets the\n' +
      'selected tools, calls discover_tools when what it needs is missing, and each call passes the approval callback.',
  },
  {
    example: 'ai-sdk-agent',
    title: 'The Vercel AI SDK',
    shows:
      "toAISDKTools hands the servers' tools to the AI SDK's own generateText loop: results and images reach the\n" +
      'model as AI SDK parts, and a destructive tool stops the loop with a tool-approval-request until approved.',
  },
  {
    example: 'serve-agent',
    title: 'Serving an agent and its tools',
    shows:
      'serveAgent exposes an agent as one tool taking { message }, with its tools beside it, over\n' +
      'Streamable HTTP on a free port; @switchboard/client connects to the URL and calls both.',
  },
  {
    example: 'gateway',
    title: 'Gateways over several servers',
    shows:
      'createGateway serves four servers as one over HTTP; official SDK clients of both protocol eras (v1 with\n' +
      '2025-11-25, v2 pinned to 2026-07-28) list and call their tools on the same URL (those needing approval\n' +
      'are listed too: the person is asked where they are). A second gateway serves only discover_tools and what it finds.',
  },
  {
    example: 'mcp-apps',
    title: 'MCP Apps: a tool with a UI',
    shows:
      'defineTool({ app }) serves a counter app as a ui:// resource beside its tool, and a helper only the app\n' +
      'may call; the client never offers that helper to a model, and openAppView hands a page the app and its calls.',
  },
  {
    example: 'openai-agents-agent',
    title: 'The OpenAI Agents SDK',
    shows:
      'toOpenAIAgentsTools gives an Agents SDK Agent the namespaced tools; a memory write interrupts the run for\n' +
      'approval and runs after state.approve; the connection as one MCP server hands the model an image input.',
  },
  {
    example: 'langchain-agent',
    title: 'MCP tools in a LangGraph agent',
    shows:
      'toLangChainTools gives LangGraph’s createReactAgent the tools of two servers; results come back as\n' +
      'ToolMessages (an image as an image block), and a tool that needs approval pauses the graph (interrupt).',
  },
  {
    example: 'mastra-agent',
    title: 'MCP tools in a Mastra agent',
    shows:
      'toMastraTools gives a Mastra Agent the same tools; an image reaches the model as a media part, and a\n' +
      'tool that needs approval suspends the run (requireApproval) until approveToolCallGenerate.',
  },
];

const bold = (text: string): string =>
  process.env.NO_COLOR || !process.stdout.isTTY ? text : `\x1b[1m${text}\x1b[22m`;
const sourceDirectory = dirname(fileURLToPath(import.meta.url));

/** Runs one example with its output indented; resolves to its exit code. */
function run(example: string): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(sourceDirectory, `${example}.ts`)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Line by line, so the gutter never lands in the middle of a line split across chunks.
  createInterface({ input: child.stdout }).on('line', (line) => console.log(`  │ ${line}`));
  createInterface({ input: child.stderr }).on('line', (line) => console.error(`  │ ${line}`));
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const wanted = process.argv.slice(2).filter((argument) => argument !== '--');
const unknown = wanted.filter((name) => !steps.some((step) => step.example === name));
if (unknown.length > 0) {
  console.error(
    `Unknown example: ${unknown.join(', ')}. Known: ${steps.map((step) => step.example).join(', ')}.`,
  );
  process.exit(2);
}
const tour = wanted.length > 0 ? steps.filter((step) => wanted.includes(step.example)) : steps;

const started = performance.now();
const failed: string[] = [];
console.log(bold('Switchboard — a guided tour'));
console.log(`${tour.length} examples, each a short program in apps/examples/src you can read and run alone.`);
for (const [index, step] of tour.entries()) {
  console.log(
    `\n${bold(`── ${index + 1}/${tour.length} ${step.title} ──`)}  (pnpm --filter @switchboard/examples ${step.example})`,
  );
  console.log(`${step.shows}\n`);
  const stepStarted = performance.now();
  const code = await run(step.example);
  const seconds = ((performance.now() - stepStarted) / 1000).toFixed(1);
  if (code === 0) console.log(`  ✔ ${step.example} (${seconds} s)`);
  else {
    console.log(`  ✖ ${step.example} failed with exit code ${code}`);
    failed.push(step.example);
  }
}
const total = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  console.log(
    `\n${bold('Tour failed')}: ${failed.join(', ')} (${total} s). Run a failing example alone to see more.`,
  );
  process.exit(1);
}
console.log(`\n${bold('Tour complete')}: ${tour.length} examples in ${total} s.`);
