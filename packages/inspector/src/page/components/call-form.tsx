/**
 * The call form of a tool: fields generated from its `inputSchema`, or the whole arguments as
 * JSON ("Raw JSON"), and the "Call tool" button. Native browser validation is off (`noValidate`):
 * our validator in the process checks the arguments and its errors come back to the fields.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import {
  fieldKind,
  initialValue,
  isRecord,
  propertiesOf,
  pruneValue,
  resolveSchema,
} from '../schema-form-model.js';
import type { JsonSchema, UiFieldError } from '../ui-types.js';
import { SchemaForm } from './schema-form.js';

export function CallForm(props: {
  idPrefix: string;
  schema: JsonSchema;
  busy: boolean;
  fieldErrors: UiFieldError[];
  onSubmit(args: Record<string, unknown>): void;
}) {
  const root = useMemo(() => resolveSchema(props.schema, props.schema), [props.schema]);
  // A root the fields cannot say (not an object of properties) starts in raw mode.
  const formable = fieldKind(root) === 'object' || propertiesOf(root).length === 0;
  const [value, setValue] = useState<Record<string, unknown>>(() => {
    const first = initialValue(root, props.schema, true);
    return isRecord(first) ? first : {};
  });
  const [raw, setRaw] = useState(!formable);
  const [rawText, setRawText] = useState('{}');
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const parseErrors = useRef(new Map<string, string>());
  const noArguments = formable && propertiesOf(root).length === 0;

  function toggleRaw(): void {
    setLocalError(undefined);
    if (!raw) {
      setRawText(JSON.stringify(pruneValue(value, true), null, 2));
      setRaw(true);
      return;
    }
    try {
      const parsed: unknown = JSON.parse(rawText);
      if (!isRecord(parsed)) throw new Error('the arguments must be a JSON object');
      setValue(parsed);
      if (formable) setRaw(false);
    } catch (error) {
      setLocalError(
        `Raw JSON: ${error instanceof Error ? error.message : String(error)}; fix it to go back to the form.`,
      );
    }
  }

  function submit(event: Event): void {
    event.preventDefault();
    setLocalError(undefined);
    if (raw) {
      try {
        const parsed: unknown = JSON.parse(rawText.trim() === '' ? '{}' : rawText);
        if (!isRecord(parsed)) throw new Error('the arguments must be a JSON object');
        props.onSubmit(parsed);
      } catch (error) {
        setLocalError(`Raw JSON: ${error instanceof Error ? error.message : String(error)}.`);
      }
      return;
    }
    if (parseErrors.current.size > 0) {
      setLocalError(`Fix the JSON of ${[...parseErrors.current.keys()].join(', ')} first.`);
      return;
    }
    props.onSubmit((pruneValue(value, true) ?? {}) as Record<string, unknown>);
  }

  const rawId = `${props.idPrefix}-raw`;
  return (
    <form class="call-form" noValidate={true} onSubmit={submit} aria-label="Call form">
      <div class="form-toolbar">
        <button type="button" class="secondary" aria-pressed={raw} onClick={toggleRaw}>
          Raw JSON
        </button>
      </div>
      {raw ? (
        <div class="field">
          <label for={rawId}>Arguments (JSON)</label>
          <textarea
            id={rawId}
            rows={10}
            spellcheck={false}
            value={rawText}
            onInput={(e) => setRawText(e.currentTarget.value)}
            aria-invalid={props.fieldErrors.length > 0 || localError !== undefined ? 'true' : undefined}
            aria-describedby={props.fieldErrors.length > 0 ? `${rawId}-error` : undefined}
          />
          {props.fieldErrors.length > 0 && (
            <ul id={`${rawId}-error`} class="field-error">
              {props.fieldErrors.map((error) => (
                <li key={error.path + error.message}>
                  <code>{error.path === '' ? '(arguments)' : error.path}</code> {error.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : noArguments ? (
        <p class="muted">This tool takes no arguments.</p>
      ) : (
        <SchemaForm
          idPrefix={props.idPrefix}
          schema={props.schema}
          value={value}
          onChange={setValue}
          fieldErrors={props.fieldErrors}
          onParseError={(pointer, message) => {
            if (message === undefined) parseErrors.current.delete(pointer);
            else parseErrors.current.set(pointer, message);
          }}
        />
      )}
      {localError !== undefined && (
        <p class="error-text" role="alert">
          {localError}
        </p>
      )}
      <button type="submit" disabled={props.busy}>
        Call tool
      </button>
    </form>
  );
}
