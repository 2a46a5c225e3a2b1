/** The approval policy asks before a call runs: the tool, why it asks, its arguments; Approve or Deny. */
import { prettyJson } from '../format.js';
import type { UiApprovalRequest } from '../ui-types.js';
import { usePendingAnswer } from '../use-pending-answer.js';
import { CodeBlock } from './code-block.js';

export function ApprovalDialog(props: { request: UiApprovalRequest }) {
  const { request } = props;
  const { busy, error, answer } = usePendingAnswer(request.id);
  const headingId = `pending-${request.id}-heading`;
  return (
    <dialog
      open={true}
      class="pending-dialog"
      aria-labelledby={headingId}
      aria-describedby={`${headingId}-why`}
    >
      <h3 id={headingId}>
        Approve <code>{request.tool}</code> on {request.server}?
      </h3>
      <p id={`${headingId}-why`}>
        The approval policy asks before this call: <strong>{request.reason}</strong>.
      </p>
      {request.app !== undefined && (
        <p class="app-asks">
          Asked by the MCP App <code>{request.app.resourceUri}</code>, not from the call form.
        </p>
      )}
      <details open={true}>
        <summary>Arguments</summary>
        <CodeBlock text={prettyJson(request.arguments)} />
      </details>
      {error !== undefined && <p class="error-text">{error}</p>}
      <div class="dialog-buttons">
        <button type="button" disabled={busy} onClick={() => void answer({ approved: true })}>
          Approve
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void answer({ approved: false })}
        >
          Deny
        </button>
      </div>
    </dialog>
  );
}
