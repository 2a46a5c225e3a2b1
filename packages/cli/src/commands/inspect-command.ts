/** `switchboard inspect <server>`: server info, its Server Card (URL servers), capabilities, tools, resources and prompts. */
import { createMcpClient, type ServerEntry } from '@switchboard/client';
import type { CommandContext } from '../cli-command.js';
import { ExitCode, UsageError } from '../cli-error.js';
import { createPalette, createProgress } from '../cli-io.js';
import { loadCliConfig, pickServers, printJson } from '../cli-session.js';
import { describeServerCard, readServerCard } from './server-card-report.js';

async function listOrEmpty<T>(supported: boolean, list: () => Promise<T[]>): Promise<T[]> {
  return supported ? list() : [];
}

/** Runs `switchboard inspect` (its flags and help: `inspectCommandSpec`). */
export async function runInspectCommand(context: CommandContext): Promise<number> {
  const [server, ...extra] = context.positionals;
  if (!server) throw new UsageError('inspect needs a server name.');
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  const config = await loadCliConfig(context);
  const entry = pickServers(config, [server])[server]!;
  const progress = createProgress(context.io, `connecting ${server}…`);
  // The card is read before (and beside) the connection: what the server says of itself up front.
  const card = readServerCard(entry);
  const client = await createMcpClient(server, entry as ServerEntry).finally(() => progress.done());
  const serverCard = await card;
  try {
    const capabilities = client.capabilities ?? {};
    const [tools, resources, templates, prompts] = await Promise.all([
      listOrEmpty(Boolean(capabilities.tools), () => client.listTools()),
      listOrEmpty(Boolean(capabilities.resources), () => client.listResources()),
      listOrEmpty(Boolean(capabilities.resources), () => client.listResourceTemplates()),
      listOrEmpty(Boolean(capabilities.prompts), () => client.listPrompts()),
    ]);
    if (context.global.json) {
      printJson(context, {
        server,
        serverInfo: client.serverInfo,
        era: client.era,
        protocolVersion: client.protocolVersion ?? null,
        instructions: client.instructions,
        ...(serverCard !== undefined ? { serverCard } : {}),
        capabilities,
        tools,
        resources,
        resourceTemplates: templates,
        prompts,
      });
      return ExitCode.ok;
    }
    const palette = createPalette(context.io.stdout, context.io.env);
    const out = (line = '') => context.io.stdout.write(`${line}\n`);
    out(
      `${palette.bold(server)}: ${client.serverInfo?.name ?? '?'} ${client.serverInfo?.version ?? ''} over ${client.transportKind}, MCP ${client.protocolVersion ?? '?'} (${client.era === 'modern' ? 'modern, stateless' : 'legacy, initialize'})`,
    );
    if (serverCard !== undefined) {
      const negotiated = { protocolVersion: client.protocolVersion, version: client.serverInfo?.version };
      for (const line of describeServerCard(serverCard, negotiated)) out(line);
    }
    if (client.instructions) out(`instructions: ${client.instructions.split('\n')[0]}`);
    out(`capabilities: ${Object.keys(capabilities).join(', ') || 'none'}`);
    out();
    out(palette.bold(`Tools (${tools.length})`));
    for (const tool of tools) {
      const hints = Object.entries(tool.annotations ?? {})
        .filter(([key, value]) => key.endsWith('Hint') && value === true)
        .map(([key]) => key.replace(/Hint$/, ''));
      out(
        `  ${tool.name}${hints.length ? palette.dim(` [${hints.join(', ')}]`) : ''} — ${(tool.description ?? '').split('\n')[0]}`,
      );
    }
    out();
    out(palette.bold(`Resources (${resources.length})`));
    for (const resource of resources.slice(0, 50)) out(`  ${resource.uri}  ${resource.name}`);
    if (resources.length > 50) out(`  … and ${resources.length - 50} more (use --json for all)`);
    out(palette.bold(`Resource templates (${templates.length})`));
    for (const template of templates) out(`  ${template.uriTemplate}  ${template.name}`);
    out(palette.bold(`Prompts (${prompts.length})`));
    for (const prompt of prompts) out(`  ${prompt.name} — ${(prompt.description ?? '').split('\n')[0]}`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}
