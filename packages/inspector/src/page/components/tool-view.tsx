/**
 * A tool's page: its description, annotations, kind and approval verdict; the call form and its
 * result; the input (and output) schema; and the forms the providers would get.
 */
import { errorText } from '../format.js';
import { routeHref } from '../hash-route.js';
import { useAsync } from '../use-async.js';
import { useLiveStore, usePage } from '../use-live-store.js';
import { AppBadge, ApprovalBadge } from './approval-badge.js';
import { ProviderForms } from './provider-forms.js';
import { SchemaBlock } from './schema-block.js';
import { ToolCall } from './tool-call.js';

export function ToolView(props: { server: string; tool: string }) {
  const { api } = usePage();
  const version = useLiveStore((state) => state.toolsVersion[props.server] ?? 0);
  const detail = useAsync(() => api.tool(props.server, props.tool), [props.server, props.tool, version]);
  const tool = detail.data;
  return (
    <article aria-labelledby="tool-heading">
      <nav aria-label="Breadcrumb" class="breadcrumb small">
        <a href="#/servers">Servers</a> /{' '}
        <a href={routeHref({ view: 'server', server: props.server, tab: 'tools' })}>{props.server}</a> /{' '}
        <span aria-current="page">{props.tool}</span>
      </nav>
      <h2 id="tool-heading">
        {tool?.title ?? props.tool}
        {tool?.title !== undefined && <span class="muted heading-note"> {props.tool}</span>}
      </h2>
      {detail.error !== undefined && <p class="error-text">{errorText(detail.error)}</p>}
      {detail.loading && tool === undefined && <p>Loading the tool…</p>}
      {tool !== undefined && (
        <>
          {tool.description !== undefined && <p class="tool-description">{tool.description}</p>}
          <dl class="meta">
            <div>
              <dt>Public name</dt>
              <dd>
                <code>{tool.publicName}</code>
              </dd>
            </div>
            <div>
              <dt>Kind</dt>
              <dd>{tool.kind ?? '–'}</dd>
            </div>
            <div>
              <dt>Approval</dt>
              <dd>
                <ApprovalBadge approval={tool.approval} /> <AppBadge app={tool.app} />
              </dd>
            </div>
            <div>
              <dt>Annotations</dt>
              <dd>
                {tool.annotations === undefined || Object.keys(tool.annotations).length === 0
                  ? 'none'
                  : Object.entries(tool.annotations).map(([key, value]) => (
                      <span key={key} class="annotation">
                        <code>{key}</code>: {JSON.stringify(value)}
                      </span>
                    ))}
              </dd>
            </div>
          </dl>
          <ToolCall tool={tool} />
          <section aria-labelledby="schema-heading">
            <h3 id="schema-heading">Schema</h3>
            <SchemaBlock title="Input schema" schema={tool.inputSchema} open={true} />
            {tool.outputSchema !== undefined && (
              <SchemaBlock title="Output schema" schema={tool.outputSchema} />
            )}
          </section>
          <ProviderForms providers={tool.providers} />
        </>
      )}
    </article>
  );
}
