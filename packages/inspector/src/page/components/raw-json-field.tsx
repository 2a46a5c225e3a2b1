/**
 * A property the form cannot say with controls (`allOf`, free-form objects, untyped values): a
 * JSON textarea. Text that does not parse marks the field and keeps the form from being sent.
 */
import { useState } from 'preact/hooks';
import type { FieldProps } from '../schema-form-context.js';
import { controlAria, useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, toPointer } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function RawJsonField(props: FieldProps) {
  const id = useFieldId(props.path);
  const form = useSchemaForm();
  const pointer = toPointer(props.path);
  const [text, setText] = useState(props.value === undefined ? '' : JSON.stringify(props.value, null, 2));
  const [parseError, setParseError] = useState<string | undefined>(undefined);
  const errors = [...(parseError === undefined ? [] : [parseError]), ...(form.errors.get(pointer) ?? [])];
  const shownErrors = errors.length > 0 ? errors : undefined;
  const description = fieldHint(props.schema, props.label);
  const onInput = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setParseError(undefined);
      form.reportParseError(pointer, undefined);
      props.onChange(undefined);
      return;
    }
    try {
      props.onChange(JSON.parse(next));
      setParseError(undefined);
      form.reportParseError(pointer, undefined);
    } catch (error) {
      const message = `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
      setParseError(message);
      form.reportParseError(pointer, message);
    }
  };
  return (
    <FieldFrame
      id={id}
      label={props.label}
      required={props.required}
      note="JSON"
      description={description}
      errors={shownErrors}
    >
      <textarea
        id={id}
        rows={4}
        value={text}
        spellcheck={false}
        onInput={(e) => onInput(e.currentTarget.value)}
        {...controlAria(id, shownErrors, description !== undefined, props.required)}
      />
    </FieldFrame>
  );
}
