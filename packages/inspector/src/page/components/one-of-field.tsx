/** A `oneOf` / `anyOf` property: a choice of branch, then the chosen branch's field(s). */
import { useState } from 'preact/hooks';
import type { FieldProps } from '../schema-form-context.js';
import { useFieldId, useSchemaForm } from '../schema-form-context.js';
import {
  branchesOf,
  branchLabel,
  branchOfValue,
  fieldHint,
  fieldKind,
  initialValue,
  mergeBranch,
  resolveSchema,
  toPointer,
} from '../schema-form-model.js';
import { FieldErrors } from './field-errors.js';
import { ObjectField } from './object-field.js';

export function OneOfField(props: FieldProps) {
  const id = useFieldId(props.path);
  const { errors, root, Field } = useSchemaForm();
  const fieldErrors = errors.get(toPointer(props.path));
  const branches = (branchesOf(props.schema) ?? []).map((branch) =>
    mergeBranch(props.schema, resolveSchema(branch, root)),
  );
  const [chosen, setChosen] = useState(() => branchOfValue(branches, props.value, root));
  const branch = branches[chosen] ?? {};
  const description = fieldHint(props.schema, props.label);
  return (
    <fieldset id={id} aria-describedby={fieldErrors !== undefined ? `${id}-error` : undefined}>
      <legend>
        {props.label}
        {props.required && <span class="required-mark"> required</span>}
        <span class="field-type"> one of {branches.length}</span>
      </legend>
      {description !== undefined && <div class="hint">{description}</div>}
      <div class="field">
        <label for={`${id}-branch`} class="plain-label">
          Variant of {props.label}
        </label>
        <select
          id={`${id}-branch`}
          value={String(chosen)}
          onChange={(e) => {
            const next = Number(e.currentTarget.value);
            setChosen(next);
            props.onChange(initialValue(branches[next] ?? {}, root, true));
          }}
        >
          {branches.map((option, index) => (
            <option key={branchLabel(option, index)} value={String(index)}>
              {branchLabel(option, index)}
            </option>
          ))}
        </select>
      </div>
      {fieldKind(branch) === 'object' ? (
        <ObjectField {...props} schema={branch} bare={true} />
      ) : (
        <Field {...props} schema={branch} />
      )}
      <FieldErrors id={id} errors={fieldErrors} />
    </fieldset>
  );
}
