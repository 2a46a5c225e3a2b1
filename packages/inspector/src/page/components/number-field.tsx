/**
 * A number or integer property. The box keeps what was typed, so a half-typed `-` or `1.` is not
 * rewritten; empty means "not set". An integer box still sends `1.5` as typed: the validator then
 * says so at the field.
 */
import { useEffect, useState } from 'preact/hooks';
import type { FieldProps } from '../schema-form-context.js';
import { controlAria, useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, toPointer, typeNote } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function NumberField(props: FieldProps & { integer: boolean }) {
  const id = useFieldId(props.path);
  const errors = useSchemaForm().errors.get(toPointer(props.path));
  const description = fieldHint(props.schema, props.label);
  const [text, setText] = useState(typeof props.value === 'number' ? String(props.value) : '');
  // A value set from outside (a reset, the raw JSON mode) replaces the text.
  useEffect(() => {
    const shown = text === '' ? undefined : Number(text);
    if (props.value !== shown && !(typeof props.value !== 'number' && Number.isNaN(shown))) {
      setText(typeof props.value === 'number' ? String(props.value) : '');
    }
  }, [props.value]);
  const onInput = (next: string) => {
    setText(next);
    const parsed = Number(next);
    props.onChange(next.trim() === '' ? undefined : Number.isNaN(parsed) ? next : parsed);
  };
  return (
    <FieldFrame
      id={id}
      label={props.label}
      required={props.required}
      note={typeNote(props.schema, props.integer ? 'integer' : 'number')}
      description={description}
      errors={errors}
    >
      <input
        id={id}
        type="number"
        step={props.integer ? '1' : 'any'}
        min={typeof props.schema.minimum === 'number' ? props.schema.minimum : undefined}
        max={typeof props.schema.maximum === 'number' ? props.schema.maximum : undefined}
        value={text}
        onInput={(e) => onInput(e.currentTarget.value)}
        {...controlAria(id, errors, description !== undefined, props.required)}
      />
    </FieldFrame>
  );
}
