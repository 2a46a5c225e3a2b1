/** An array of enum values (a multi-select): one checkbox per value, in a fieldset named after the property. */
import type { FieldProps } from '../schema-form-context.js';
import { useFieldId, useSchemaForm } from '../schema-form-context.js';
import { enumOptions, fieldHint, resolveSchema, toPointer } from '../schema-form-model.js';
import type { JsonSchema } from '../ui-types.js';
import { FieldErrors } from './field-errors.js';

export function MultiEnumField(props: FieldProps) {
  const id = useFieldId(props.path);
  const { errors, root } = useSchemaForm();
  const fieldErrors = errors.get(toPointer(props.path));
  const options = enumOptions(resolveSchema(props.schema.items as JsonSchema, root));
  const chosen = Array.isArray(props.value) ? props.value : [];
  const isChosen = (value: unknown) => chosen.some((item) => JSON.stringify(item) === JSON.stringify(value));
  const hint = fieldHint(props.schema, props.label);
  return (
    <fieldset
      id={id}
      class="multi-enum"
      aria-describedby={fieldErrors !== undefined ? `${id}-error` : undefined}
      aria-invalid={fieldErrors !== undefined ? 'true' : undefined}
    >
      <legend>
        {props.label}
        {props.required && <span class="required-mark"> required</span>}
        <span class="field-type"> any of</span>
      </legend>
      {hint !== undefined && <div class="hint">{hint}</div>}
      {options.map((option, index) => (
        <span class="field checkbox" key={option.label}>
          <input
            id={`${id}-${index}`}
            type="checkbox"
            checked={isChosen(option.value)}
            onChange={(e) => {
              const rest = chosen.filter((item) => JSON.stringify(item) !== JSON.stringify(option.value));
              // Kept in the order of the schema's values, whatever order they were ticked in.
              const next = e.currentTarget.checked ? [...rest, option.value] : rest;
              const ordered = options
                .map((o) => o.value)
                .filter((value) => next.some((item) => JSON.stringify(item) === JSON.stringify(value)));
              props.onChange(ordered.length === 0 && !props.required ? undefined : ordered);
            }}
          />
          <label for={`${id}-${index}`} class="plain-label">
            {option.label}
          </label>
        </span>
      ))}
      <FieldErrors id={id} errors={fieldErrors} />
    </fieldset>
  );
}
