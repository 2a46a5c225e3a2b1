/** A nested object property: a fieldset of its properties (`bare`: the properties only). */
import type { FieldProps } from '../schema-form-context.js';
import { useFieldId, useSchemaForm } from '../schema-form-context.js';
import { fieldHint, isRecord, propertiesOf, toPointer } from '../schema-form-model.js';
import { FieldErrors } from './field-errors.js';

export function ObjectField(props: FieldProps & { bare?: boolean }) {
  const id = useFieldId(props.path);
  const { errors, Field } = useSchemaForm();
  const fieldErrors = errors.get(toPointer(props.path));
  const value = isRecord(props.value) ? props.value : {};
  const description = fieldHint(props.schema, props.label);
  const fields = propertiesOf(props.schema).map((property) => (
    <Field
      key={property.name}
      label={property.name}
      path={[...props.path, property.name]}
      schema={property.schema}
      required={property.required}
      value={value[property.name]}
      onChange={(next) => {
        const copy = { ...value };
        if (next === undefined) delete copy[property.name];
        else copy[property.name] = next;
        props.onChange(copy);
      }}
    />
  ));
  if (props.bare) return <>{fields}</>;
  return (
    <fieldset id={id} aria-describedby={fieldErrors !== undefined ? `${id}-error` : undefined}>
      <legend>
        {props.label}
        {props.required && <span class="required-mark"> required</span>}
        <span class="field-type"> object</span>
      </legend>
      {description !== undefined && <div class="hint">{description}</div>}
      {fields}
      <FieldErrors id={id} errors={fieldErrors} />
    </fieldset>
  );
}
