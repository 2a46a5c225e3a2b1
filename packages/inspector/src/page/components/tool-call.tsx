/**
 * Calling a tool from the page: the form, then the call's live state — its progress (from
 * `call-progress` events), a "Cancel call" button while it runs — and its Result. A 422 of the
 * process puts the validator's errors at the fields; nothing reached the server then.
 */
import { useEffect, useState } from 'preact/hooks';
import { UiRequestError } from '../api-client.js';
import { errorText } from '../format.js';
import { isFinal } from '../live-store.js';
import type { UiErrorBody, UiFieldError, UiToolDetail } from '../ui-types.js';
import { useLiveStore, usePage } from '../use-live-store.js';
import { CallForm } from './call-form.js';
import { CallProgress } from './call-progress.js';
import { ResultView } from './result-view.js';

/** How often a running call is asked for while live events are down. */
const pollWhileOfflineMs = 1500;

export function ToolCall(props: { tool: UiToolDetail }) {
  const { api, store } = usePage();
  const { tool } = props;
  const [callId, setCallId] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<UiFieldError[]>([]);
  const [requestError, setRequestError] = useState<UiErrorBody['error'] | undefined>(undefined);
  const call = useLiveStore((state) => (callId === undefined ? undefined : state.calls[callId]));
  const progress = useLiveStore((state) => (callId === undefined ? undefined : state.progress[callId]));
  const connection = useLiveStore((state) => state.connection);
  // The approval prompt of this call is in the pending list until answered.
  const awaitingApproval = useLiveStore((state) =>
    state.pending.some((request) => request.kind === 'approval' && request.callId === callId),
  );
  const running = starting || (call !== undefined && !isFinal(call));

  useEffect(() => {
    if (callId === undefined || call === undefined || isFinal(call) || connection === 'open') return;
    const timer = setInterval(() => {
      api.call(callId).then(
        (latest) => store.trackCall(latest),
        () => {},
      );
    }, pollWhileOfflineMs);
    return () => clearInterval(timer);
  }, [callId, call, connection]);

  async function start(args: Record<string, unknown>): Promise<void> {
    setStarting(true);
    setFieldErrors([]);
    setRequestError(undefined);
    setCallId(undefined);
    try {
      const started = await api.startCall({ server: tool.server, tool: tool.name, arguments: args });
      store.trackCall({
        callId: started.callId,
        server: tool.server,
        tool: tool.name,
        arguments: args,
        state: 'running',
        startedAt: new Date().toISOString(),
      });
      setCallId(started.callId);
    } catch (error) {
      if (error instanceof UiRequestError) {
        setFieldErrors(error.body.fields ?? []);
        setRequestError(error.body);
      } else {
        setRequestError({ code: 'UI_ERROR', message: errorText(error) });
      }
    } finally {
      setStarting(false);
    }
  }

  async function cancel(): Promise<void> {
    if (callId === undefined) return;
    try {
      await api.cancelCall(callId);
    } catch (error) {
      store.setNotice(`Cancel failed: ${errorText(error)}`, 'error');
    }
  }

  return (
    <div class="tool-call">
      <section class="call-panel" aria-labelledby="call-heading">
        <h3 id="call-heading">Call</h3>
        <CallForm
          idPrefix={`call-${tool.server}-${tool.name}`.replace(/[^A-Za-z0-9_-]/g, '_')}
          schema={tool.inputSchema}
          busy={running}
          fieldErrors={fieldErrors}
          onSubmit={(args) => void start(args)}
        />
        {running && (
          <div class="call-running">
            <CallProgress
              progress={progress}
              awaitingApproval={awaitingApproval || call?.state === 'awaiting-approval'}
            />
            <button
              type="button"
              class="danger"
              onClick={() => void cancel()}
              disabled={callId === undefined}
            >
              Cancel call
            </button>
          </div>
        )}
      </section>
      <ResultView
        call={call}
        requestError={call === undefined ? requestError : undefined}
        appUri={tool.app?.resourceUri}
      />
    </div>
  );
}
