/**
 * A server asks the user for input (elicitation): a form generated from its `requestedSchema`
 * (Submit sends `accept` with the content), or a URL to open; Decline answers `decline`.
 */
import { useState } from 'preact/hooks';
import { initialValue, isRecord, pruneValue } from '../schema-form-model.js';
import type { UiElicitationRequest } from '../ui-types.js';
import { usePendingAnswer } from '../use-pending-answer.js';
import { FormDialogButtons } from './form-dialog-buttons.js';
import { SchemaForm } from './schema-form.js';

export function ElicitationDialog(props: { request: UiElicitationRequest }) {
  const { request } = props;
  const { busy, error, fieldErrors, answer } = usePendingAnswer(request.id);
  const schema = request.requestedSchema ?? { type: 'object', properties: {} };
  const [value, setValue] = useState<Record<string, unknown>>(() => {
    const first = initialValue(schema, schema, true);
    return isRecord(first) ? first : {};
  });
  const headingId = `pending-${request.id}-heading`;
  const idPrefix = `elicit-${request.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <dialog open={true} class="pending-dialog" aria-labelledby={headingId}>
      <h3 id={headingId}>{request.server} asks for input</h3>
      <p class="elicitation-message">{request.message}</p>
      <form
        noValidate={true}
        aria-labelledby={headingId}
        onSubmit={(event) => {
          event.preventDefault();
          void answer(
            request.url !== undefined
              ? { action: 'accept' }
              : { action: 'accept', content: pruneValue(value, true) ?? {} },
          );
        }}
      >
        {request.url !== undefined ? (
          <p>
            Open{' '}
            <a href={request.url} target="_blank" rel="noreferrer noopener">
              {request.url}
            </a>{' '}
            and finish there, then submit.
          </p>
        ) : (
          <SchemaForm
            idPrefix={idPrefix}
            schema={schema}
            value={value}
            onChange={setValue}
            fieldErrors={fieldErrors}
            onParseError={() => {}}
          />
        )}
        {error !== undefined && <p class="error-text">{error}</p>}
        <FormDialogButtons
          submitLabel="Submit"
          busy={busy}
          onDecline={() => void answer({ action: 'decline' })}
        />
      </form>
    </dialog>
  );
}
