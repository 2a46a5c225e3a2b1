/**
 * The frame of one form field: the label (the property name exactly, nothing else inside it, so
 * that the field's accessible name is that name), a required mark, its type, its description and
 * the validator's errors, tied to the control by `aria-describedby`.
 */
import type { ComponentChildren } from 'preact';
import { FieldErrors } from './field-errors.js';

export function FieldFrame(props: {
  id: string;
  label: string;
  required: boolean;
  note?: string | undefined;
  description?: string | undefined;
  errors?: string[] | undefined;
  /** Checkboxes put their control before the label. */
  inline?: boolean;
  children: ComponentChildren;
}) {
  const label = (
    <span class="field-label">
      <label for={props.id}>{props.label}</label>
      {props.required && <span class="required-mark">required</span>}
      {props.note !== undefined && <span class="field-type">{props.note}</span>}
    </span>
  );
  return (
    <div class={props.inline ? 'field checkbox' : 'field'}>
      {props.inline ? (
        <>
          {props.children}
          {label}
        </>
      ) : (
        <>
          {label}
          {props.children}
        </>
      )}
      {props.description !== undefined && props.description !== '' && (
        <div id={`${props.id}-hint`} class="hint">
          {props.description}
        </div>
      )}
      <FieldErrors id={props.id} errors={props.errors} />
    </div>
  );
}
