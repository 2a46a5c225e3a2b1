/** A table of tools: each name links to the tool's page (description, schema, call form). */
import { routeHref } from '../hash-route.js';
import type { UiToolSummary } from '../ui-types.js';
import { AppBadge, ApprovalBadge } from './approval-badge.js';

/** Whether a tool matches a search (name, title, description, public name; case-insensitive). */
export function toolMatches(tool: UiToolSummary, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (needle === '') return true;
  return [tool.name, tool.publicName, tool.title ?? '', tool.description ?? ''].some((text) =>
    text.toLowerCase().includes(needle),
  );
}

export function ToolList(props: { tools: UiToolSummary[]; caption: string }) {
  if (props.tools.length === 0) return <p class="muted">No tools match.</p>;
  return (
    <table class="tool-list">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Kind</th>
          <th scope="col">Approval</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {props.tools.map((tool) => (
          <tr key={tool.publicName}>
            <th scope="row">
              <a href={routeHref({ view: 'tool', server: tool.server, tool: tool.name })}>{tool.name}</a>{' '}
              <AppBadge app={tool.app} />
              {tool.title !== undefined && tool.title !== tool.name && (
                <div class="small muted">{tool.title}</div>
              )}
            </th>
            <td>{tool.kind ?? '–'}</td>
            <td>
              <ApprovalBadge approval={tool.approval} />
            </td>
            <td class="description">{tool.description ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
