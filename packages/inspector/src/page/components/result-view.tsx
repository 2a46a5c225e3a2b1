/**
 * The Result region of a call: the content blocks, `structuredContent` as a tree, `isError` in
 * red, a failure's code and message, and the raw CallToolResult in a `<details>`.
 */
import { formatMs } from '../format.js';
import { isRecord } from '../schema-form-model.js';
import type { UiCall, UiErrorBody } from '../ui-types.js';
import { ContentBlockView } from './content-block-view.js';
import { JsonTree } from './json-tree.js';
import { RawResult } from './raw-result.js';
import { StateBadge } from './state-badge.js';

export function ResultView(props: {
  call: UiCall | undefined;
  requestError: UiErrorBody['error'] | undefined;
}) {
  const { call, requestError } = props;
  const result = isRecord(call?.result) ? call.result : undefined;
  const isError = result?.isError === true;
  const content = Array.isArray(result?.content) ? result.content : [];
  return (
    <section
      aria-label="Result"
      class={isError || call?.error !== undefined ? 'result result-error' : 'result'}
    >
      <h3>Result</h3>
      {call === undefined && requestError === undefined && <p class="muted">No call yet.</p>}
      {requestError !== undefined && (
        <p class="error-text">
          <code>{requestError.code}</code> {requestError.message}
        </p>
      )}
      {call !== undefined && (
        <p class="small">
          <StateBadge state={call.state} /> {call.tool} on {call.server}
          {call.durationMs !== undefined && ` · ${formatMs(call.durationMs)}`}
        </p>
      )}
      {call?.error !== undefined && (
        <p class="error-text">
          <code>{call.error.code}</code> {call.error.message}
        </p>
      )}
      {isError && <p class="error-text strong">The tool reported an error (isError).</p>}
      {content.map((block, index) => (
        <ContentBlockView key={index} block={block} server={call?.server ?? ''} />
      ))}
      {result !== undefined && 'structuredContent' in result && (
        <div class="structured">
          <h4>Structured content</h4>
          <JsonTree value={result.structuredContent} />
        </div>
      )}
      {call?.result !== undefined && <RawResult result={call.result} />}
    </section>
  );
}
