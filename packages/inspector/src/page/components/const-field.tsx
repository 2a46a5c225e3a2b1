/** A `const` property: shown, not editable (its value is sent as is). */
import type { FieldProps } from '../schema-form-context.js';
import { useFieldId, useSchemaForm } from '../schema-form-context.js';
import { toPointer } from '../schema-form-model.js';
import { FieldFrame } from './field-frame.js';

export function ConstField(props: FieldProps) {
  const id = useFieldId(props.path);
  const errors = useSchemaForm().errors.get(toPointer(props.path));
  return (
    <FieldFrame id={id} label={props.label} required={props.required} note="constant" errors={errors}>
      <input id={id} readOnly={true} value={JSON.stringify(props.schema.const)} />
    </FieldFrame>
  );
}
