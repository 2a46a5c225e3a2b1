/**
 * The Result region of a call: the content blocks, `structuredContent` as a tree, `isError` in
 * red, a failure's code and message, and the raw CallToolResult in a `<details>`. A tool with an
 * MCP App shows its result in the app first, with a toggle to the result as it came.
 */
import { useEffect, useState } from 'preact/hooks';
import { formatMs } from '../format.js';
import { isRecord } from '../schema-form-model.js';
import type { UiCall, UiErrorBody } from '../ui-types.js';
import { AppResult } from './app-result.js';
import { ContentBlockView } from './content-block-view.js';
import { JsonTree } from './json-tree.js';
import { RawResult } from './raw-result.js';
import { StateBadge } from './state-badge.js';

export function ResultView(props: {
  call: UiCall | undefined;
  requestError: UiErrorBody['error'] | undefined;
  /** The tool's MCP App (`ui://` resource), when it has one. */
  appUri?: string | undefined;
}) {
  const { call, requestError } = props;
  const [shown, setShown] = useState<'app' | 'raw'>('app');
  // The app host (the AppBridge and the SDK under it) loads while the call runs, not after it.
  useEffect(() => {
    if (props.appUri !== undefined) import('../app-bridge-host.js').catch(() => {});
  }, [props.appUri]);
  const result = isRecord(call?.result) ? call.result : undefined;
  const isError = result?.isError === true;
  const content = Array.isArray(result?.content) ? result.content : [];
  const withApp = props.appUri !== undefined && call?.state === 'done' && result !== undefined;
  const showApp = withApp && shown === 'app';
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
      {withApp && (
        <fieldset class="result-toggle">
          <legend class="visually-hidden">Show the result</legend>
          <label>
            <input
              type="radio"
              name={`shown-${call.callId}`}
              checked={shown === 'app'}
              onChange={() => setShown('app')}
            />
            App
          </label>
          <label>
            <input
              type="radio"
              name={`shown-${call.callId}`}
              checked={shown === 'raw'}
              onChange={() => setShown('raw')}
            />
            Raw result
          </label>
        </fieldset>
      )}
      {showApp && <AppResult callId={call.callId} resourceUri={props.appUri as string} />}
      {isError && <p class="error-text strong">The tool reported an error (isError).</p>}
      {!showApp &&
        content.map((block, index) => (
          <ContentBlockView key={index} block={block} server={call?.server ?? ''} />
        ))}
      {!showApp && result !== undefined && 'structuredContent' in result && (
        <div class="structured">
          <h4>Structured content</h4>
          <JsonTree value={result.structuredContent} />
        </div>
      )}
      {call?.result !== undefined && <RawResult result={call.result} />}
    </section>
  );
}
