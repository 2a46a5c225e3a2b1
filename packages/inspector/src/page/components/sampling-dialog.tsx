/**
 * A server asks for a model completion (sampling): its messages and preferences, and a box for
 * the user to write the reply the model would give; Decline refuses.
 */
import { useState } from 'preact/hooks';
import { prettyJson } from '../format.js';
import { isRecord } from '../schema-form-model.js';
import type { UiSamplingRequest } from '../ui-types.js';
import { usePendingAnswer } from '../use-pending-answer.js';
import { CodeBlock } from './code-block.js';
import { FormDialogButtons } from './form-dialog-buttons.js';

function textOf(content: unknown): string {
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (isRecord(content)) {
    if (content.type === 'text' && typeof content.text === 'string') return content.text;
    return `[${String(content.type ?? 'content')}]`;
  }
  return String(content ?? '');
}

export function SamplingDialog(props: { request: UiSamplingRequest }) {
  const { request } = props;
  const { busy, error, answer } = usePendingAnswer(request.id);
  const [reply, setReply] = useState('');
  const params = isRecord(request.params) ? request.params : {};
  const messages = Array.isArray(params.messages) ? params.messages.filter(isRecord) : [];
  const headingId = `pending-${request.id}-heading`;
  const replyId = `pending-${request.id}-reply`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <dialog open={true} class="pending-dialog" aria-labelledby={headingId}>
      <h3 id={headingId}>{request.server} asks for a model reply</h3>
      {typeof params.systemPrompt === 'string' && (
        <p class="small">
          <strong>System prompt:</strong> {params.systemPrompt}
        </p>
      )}
      <ol class="sampling-messages" aria-label="Messages">
        {messages.map((message, index) => (
          <li key={index}>
            <span class="badge badge-neutral">{String(message.role ?? '?')}</span>{' '}
            <pre>{textOf(message.content)}</pre>
          </li>
        ))}
      </ol>
      <details>
        <summary>Request parameters</summary>
        <CodeBlock text={prettyJson(request.params)} />
      </details>
      <form
        noValidate={true}
        aria-labelledby={headingId}
        onSubmit={(event) => {
          event.preventDefault();
          void answer({ action: 'accept', text: reply });
        }}
      >
        <div class="field">
          <label for={replyId}>Reply</label>
          <textarea id={replyId} rows={4} value={reply} onInput={(e) => setReply(e.currentTarget.value)} />
        </div>
        {error !== undefined && <p class="error-text">{error}</p>}
        <FormDialogButtons
          submitLabel="Send reply"
          busy={busy}
          onDecline={() => void answer({ action: 'decline' })}
        />
      </form>
    </dialog>
  );
}
