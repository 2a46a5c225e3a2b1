// What the conformance client does once connected, per scenario, through @switchboard/client's
// public API only: list what the server offers and use it as an agent would. Failures of single
// calls are logged, not fatal: several scenarios serve tools that are meant to fail (a result
// without `resultType`, tools with invalid header declarations the client must not even call).

/** A plausible value for a JSON Schema property (the suite's tools take numbers and strings). */
function sample(schema, index) {
  if (schema && 'default' in schema) return schema.default;
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return index + 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return `value-${index + 1}`;
  }
}

function argumentsFor(tool) {
  const properties = tool.inputSchema?.properties ?? {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema], index) => [name, sample(schema, index)]),
  );
}

/** The calls to make: the ones the suite names in its context, else each tool once. */
function callsFor(tools, scenario, context) {
  if (Array.isArray(context.toolCalls)) return context.toolCalls;
  if (scenario === 'json-schema-2020-12-preservation') {
    // Echo the focal tool's schema back exactly as the client holds it: the suite compares.
    const focal = tools.find((tool) => tool.name !== 'json_schema_echo');
    return focal ? [{ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }] : [];
  }
  if (scenario === 'http-invalid-tool-headers') {
    return tools.map((tool) => ({ name: tool.name, arguments: { region: 'us-west1' } }));
  }
  return tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool) }));
}

const log = (scenario, line) => console.error(`[${scenario}] ${line}`);
const describe = (error) => (error instanceof Error ? error.message : String(error));

async function attempt(scenario, what, run) {
  try {
    const result = await run();
    log(scenario, `${what}: ${JSON.stringify(result ?? null).slice(0, 200)}`);
  } catch (error) {
    log(scenario, `${what} failed: ${describe(error)}`);
  }
}

/** Loads a skill as a host would when the model asks for it: SKILL.md first, then what it references. */
async function loadSkills(client, scenario) {
  const skills = await client.listSkills();
  log(scenario, `skills: ${skills.map((skill) => skill.uri).join(', ') || 'none'}`);
  // Listing must not fetch files; only the verification scenarios go on to load the skill.
  if (!scenario.startsWith('sep-2640-client-verify-')) return;
  for (const skill of skills) {
    try {
      const manifest = await client.readSkill(skill);
      log(scenario, `loaded ${manifest.uri}`);
      for (const entry of skill.resources ?? []) {
        if (entry.uri === skill.uri) continue;
        await attempt(
          scenario,
          `read ${entry.uri}`,
          async () => (await client.readSkill(skill, entry.uri)).uri,
        );
      }
    } catch (error) {
      log(scenario, `refused skill ${skill.uri}: ${describe(error)}`);
    }
  }
}

/** Drives one scenario on a connected client. */
export async function driveScenario(client, scenario, context) {
  log(scenario, `connected: ${client.era} ${client.protocolVersion}`);
  const tools = await client.listTools();
  for (const call of callsFor(tools, scenario, context)) {
    await attempt(scenario, call.name, async () => {
      const result = await client.callTool(call.name, call.arguments, { timeoutMs: 20_000 });
      return result.content ?? result;
    });
  }
  const capabilities = client.capabilities ?? {};
  if (capabilities.resources) {
    const resources = await client.listResources().catch(() => []);
    if (resources[0])
      await attempt(scenario, `read ${resources[0].uri}`, () => client.readResource(resources[0].uri));
  }
  if (capabilities.prompts) {
    const prompts = await client.listPrompts().catch(() => []);
    if (prompts[0])
      await attempt(scenario, `prompt ${prompts[0].name}`, () => client.getPrompt(prompts[0].name, {}));
  }
  if (capabilities.extensions?.['io.modelcontextprotocol/skills']) await loadSkills(client, scenario);
}
