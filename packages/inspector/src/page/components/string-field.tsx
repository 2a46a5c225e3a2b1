/** A string property: a text input, or a textarea for long text. An empty box means "not set". */
import type { FieldProps } from '../schema-form-context.js';
import { controlAria, useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, toPointer, typeNote } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function StringField(props: FieldProps & { multiline: boolean }) {
  const id = useFieldId(props.path);
  const errors = useSchemaForm().errors.get(toPointer(props.path));
  const description = fieldHint(props.schema, props.label);
  const aria = controlAria(id, errors, description !== undefined, props.required);
  const value = typeof props.value === 'string' ? props.value : '';
  const onInput = (text: string) => props.onChange(text === '' ? undefined : text);
  return (
    <FieldFrame
      id={id}
      label={props.label}
      required={props.required}
      note={typeNote(props.schema, props.multiline ? 'text' : 'string')}
      description={description}
      errors={errors}
    >
      {props.multiline ? (
        <textarea id={id} rows={5} value={value} onInput={(e) => onInput(e.currentTarget.value)} {...aria} />
      ) : (
        <input id={id} type="text" value={value} onInput={(e) => onInput(e.currentTarget.value)} {...aria} />
      )}
    </FieldFrame>
  );
}
