/** A boolean property: a checkbox (unset until first ticked, unless required or defaulted). */
import type { FieldProps } from '../schema-form-context.js';
import { controlAria, useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, toPointer } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function BooleanField(props: FieldProps) {
  const id = useFieldId(props.path);
  const errors = useSchemaForm().errors.get(toPointer(props.path));
  const description = fieldHint(props.schema, props.label);
  return (
    <FieldFrame
      id={id}
      label={props.label}
      required={props.required}
      note={props.value === undefined ? 'boolean, not set' : 'boolean'}
      description={description}
      errors={errors}
      inline={true}
    >
      <input
        id={id}
        type="checkbox"
        checked={props.value === true}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
        {...controlAria(id, errors, description !== undefined, props.required)}
      />
    </FieldFrame>
  );
}
