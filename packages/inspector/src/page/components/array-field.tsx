/** An array property: one field per item, with buttons to add and remove items. */
import type { FieldProps } from '../schema-form-context.js';
import { useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, initialValue, toPointer } from '../schema-form-model.js';
import type { JsonSchema } from '../ui-types.js';
import { FieldErrors } from './field-errors.js';

export function ArrayField(props: FieldProps) {
  const id = useFieldId(props.path);
  const { errors, root, Field } = useSchemaForm();
  const fieldErrors = errors.get(toPointer(props.path));
  const items = Array.isArray(props.value) ? props.value : [];
  const itemSchema = props.schema.items as JsonSchema;
  const description = fieldHint(props.schema, props.label);
  const change = (next: unknown[]) => props.onChange(next);
  return (
    <fieldset id={id} aria-describedby={fieldErrors !== undefined ? `${id}-error` : undefined}>
      <legend>
        {props.label}
        {props.required && <span class="required-mark"> required</span>}
        <span class="field-type"> array</span>
      </legend>
      {description !== undefined && <div class="hint">{description}</div>}
      {items.length === 0 && <p class="muted small">No items.</p>}
      {items.map((item, index) => (
        <div class="array-item" key={index}>
          <div class="array-item-body">
            <Field
              label={`${props.label}[${index}]`}
              path={[...props.path, index]}
              schema={itemSchema}
              required={true}
              value={item}
              onChange={(next) => change(items.map((old, i) => (i === index ? next : old)))}
            />
          </div>
          <button type="button" class="secondary" onClick={() => change(items.filter((_, i) => i !== index))}>
            Remove<span class="visually-hidden"> {`${props.label}[${index}]`}</span>
          </button>
        </div>
      ))}
      <button
        type="button"
        class="secondary"
        onClick={() => change([...items, initialValue(itemSchema, root, true)])}
      >
        Add item<span class="visually-hidden"> to {props.label}</span>
      </button>
      <FieldErrors id={id} errors={fieldErrors} />
    </fieldset>
  );
}
