/**
 * MCP Apps: a tool with an interactive UI. The server (`defineTool({ app })`) serves a tiny counter
 * app as a `ui://` resource beside its tool, plus `increment`, a helper only the app may call
 * (`visibility: ['app']`). The client keeps the app metadata, never offers `increment` to a model,
 * and `openAppView` gives what a web page needs to host the app: its HTML, the tool input and
 * result to hand it, and `handleAppRequest` for the calls the app makes back. (`switchboard ui`
 * renders such apps in the browser; here the app's request is made by hand.)
 */
import { connectMcp, openAppView, toOpenAITools } from '@switchboard/client';
import { createMcpServer, defineTool, serve } from '@switchboard/server';

let count = 0;
const counterHtml = `<!doctype html>
<html><body><p>Count: <output id="count">?</output></p><button id="more">+1</button>
<script type="module">
  // In a real app: import { App } from '@modelcontextprotocol/ext-apps' (bundled), then
  // app.ontoolresult = ({ structuredContent }) => show(structuredContent.count);
  // more.onclick = async () => show((await app.callServerTool({ name: 'increment' })).structuredContent.count);
</script></body></html>`;

const server = createMcpServer({
  name: 'counter',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'show_counter',
      description: 'Show the counter in an interactive app.',
      input: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      app: { html: counterHtml, prefersBorder: true },
      execute: () => ({
        content: [{ type: 'text', text: `count is ${count}` }],
        structuredContent: { count },
      }),
    }),
    defineTool({
      name: 'increment',
      description: 'Add one to the counter (called by the app).',
      input: { type: 'object', properties: {} },
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false },
      app: { resourceUri: 'ui://show_counter/app.html', visibility: ['app'] },
      execute: () => {
        count += 1;
        return { content: [{ type: 'text', text: `count is ${count}` }], structuredContent: { count } };
      },
    }),
  ],
});
const http = await serve(server, { transport: { type: 'http', port: 0 } });
const connection = await connectMcp({ counter: { url: http.url as string } }, { approval: 'never' });
try {
  for (const tool of connection.registry.list()) {
    console.log(
      `${tool.name}: app ${tool.app?.resourceUri}, for ${tool.app?.visibility?.join(' and ') ?? 'model and app'}`,
    );
  }
  const offered = toOpenAITools(connection).tools.map((tool) => tool.name);
  console.log(`a model is offered: ${offered.join(', ')}`);

  // The host's side: the model called show_counter; open its app.
  const view = await openAppView(connection, { name: 'mcp__counter__show_counter', arguments: {} });
  console.log(
    `app ${view.resource.uri}: ${view.resource.html.length} bytes of HTML, prefersBorder ${view.resource.meta.prefersBorder}`,
  );
  console.log(`tool result for the app: ${JSON.stringify(view.toolResult.structuredContent)}`);
  // The app's button: a tools/call by the tool's name on its server, relayed by the page.
  const answer = (await view.handleAppRequest({ method: 'tools/call', params: { name: 'increment' } })) as {
    structuredContent: { count: number };
  };
  console.log(`the app called increment → ${JSON.stringify(answer.structuredContent)}`);
  try {
    await view.handleAppRequest({ method: 'tools/call', params: { name: 'delete_everything' } });
  } catch (error) {
    console.log(`the app called delete_everything → ${(error as { code?: string }).code}`);
  }
} finally {
  await connection.close();
  await http.close();
}
