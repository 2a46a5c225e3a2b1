/** An `enum` (or a `oneOf` of `const`s): a select; "not set" is offered unless required. */
import type { FieldProps } from '../schema-form-context.js';
import { controlAria, useFieldId, useSchemaForm } from '../schema-form-context.js';
import { enumOptions, fieldHint, toPointer } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function EnumField(props: FieldProps) {
  const id = useFieldId(props.path);
  const errors = useSchemaForm().errors.get(toPointer(props.path));
  const description = fieldHint(props.schema, props.label);
  const options = enumOptions(props.schema);
  const selected = options.findIndex(
    (option) => JSON.stringify(option.value) === JSON.stringify(props.value),
  );
  return (
    <FieldFrame
      id={id}
      label={props.label}
      required={props.required}
      note="one of"
      description={description}
      errors={errors}
    >
      <select
        id={id}
        value={selected < 0 ? '' : String(selected)}
        onChange={(e) => {
          const index = e.currentTarget.value;
          props.onChange(index === '' ? undefined : options[Number(index)]?.value);
        }}
        {...controlAria(id, errors, description !== undefined, props.required)}
      >
        <option value="">{props.required ? 'Choose…' : '(not set)'}</option>
        {options.map((option, index) => (
          <option key={option.label} value={String(index)}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
